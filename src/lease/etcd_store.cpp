#include "lease/etcd_store.h"

#include "core/http_curl.h"
#include "lease/etcd_messages.h"
#include "lease/lease_record.h"
#include "lease/transitions.h"

namespace lw::lease {
namespace {

// A record is a few hundred bytes; the local store refuses more than this too.
constexpr std::size_t kMaxRecordBytes = 64 * 1024;

Error unavailable(const std::string& endpoint, std::string message) {
  return makeError(ErrorCode::LeaseUnavailable, std::move(message),
                   "check that etcd is running and its gateway answers at " + endpoint +
                       "; until it does, no lease is claimed, renewed or released (fail closed)",
                   endpoint);
}

// The refusal for a key whose value is not a lease record: the same as the
// local store's corrupt file, with the way to remove a key.
Error corruptKey(Error decoded, const std::string& key) {
  decoded.hint =
      "inspect the key (`loopwright lease list --etcd URL` shows it as corrupt); once "
      "you know no holder is alive and the resource is gone, delete it by hand "
      "(`etcdctl del " +
      key + "`)";
  return decoded;
}

Result<Lease> decodeValue(const std::string& value, const std::string& resource, const std::string& key) {
  if (value.size() > kMaxRecordBytes)
    return corruptKey(makeError(ErrorCode::LeaseUnavailable,
                                "the lease record " + key +
                                    " is corrupt (larger than 64 KiB); "
                                    "every operation on it is refused",
                                "", key),
                      key);
  auto lease = decodeRecord(value, resource, key);
  if (!lease) return corruptKey(lease.error(), key);
  return lease;
}

std::string withoutTrailingSlash(std::string url) {
  while (url.ends_with("/")) url.pop_back();
  return url;
}

// What libcurl in the etcd store may do: one origin, no redirects, no proxy;
// plain http only to this machine (the policy's default).
http::Policy etcdPolicy() {
  http::Policy policy;
  policy.maxRedirects = 0;
  policy.proxy = http::Proxy::kNever;
  policy.connectTimeout = std::chrono::milliseconds(3000);
  return policy;
}

// The store with the transport it owns (a base, so that it is built first).
struct OwnedTransport {
  http::CurlTransport transport{etcdPolicy()};
};

class CurlEtcdStore final : private OwnedTransport, public EtcdStore {
 public:
  CurlEtcdStore(EtcdStoreOptions options, Clock nowMs) : EtcdStore(transport, std::move(options), std::move(nowMs)) {}
};

}  // namespace

// The key as read: its record (nullopt: no such key) and the revision a
// write compares against.
struct EtcdStore::Observed {
  std::string key;
  std::optional<Lease> lease;
  std::optional<std::int64_t> modRevision;
};

EtcdStore::EtcdStore(http::Transport& transport, EtcdStoreOptions options, Clock nowMs)
    : transport_(transport), options_(std::move(options)), nowMs_(std::move(nowMs)) {
  options_.endpoint = withoutTrailingSlash(options_.endpoint);
}

Result<std::string> EtcdStore::post(const std::string& path, std::string body) {
  http::Request request;
  request.method = "POST";
  request.url = options_.endpoint + path;
  request.headers = {{"Content-Type", "application/json"}};
  request.body = std::move(body);
  request.timeout = options_.requestTimeout;
  http::Response response = transport_.send(request);
  const std::string& at = options_.endpoint;
  if (!response.answered())
    return unavailable(at, "the etcd gateway at " + at + " did not answer " + path + " (" +
                               std::string(http::toString(response.failure)) + ": " + response.error + ")");
  if (response.status != 200)
    return unavailable(at, "the etcd gateway at " + at + " answered " + path + " with HTTP " +
                               std::to_string(response.status) + ": " + response.body.substr(0, 200));
  return std::move(response.body);
}

Result<EtcdStore::Observed> EtcdStore::read(const std::string& resource) {
  Observed seen{options_.prefix + resource, std::nullopt, std::nullopt};
  auto body = post("/v3/kv/range", etcd::rangeKeyBody(seen.key));
  if (!body) return body.error();
  auto kvs = etcd::parseRange(*body, options_.endpoint);
  if (!kvs) return kvs.error();
  if (kvs->empty()) return seen;
  if (kvs->size() != 1 || kvs->front().key != seen.key)
    return unavailable(options_.endpoint, "the etcd gateway at " + options_.endpoint + " answered a range of " +
                                              seen.key + " with other keys");
  auto lease = decodeValue(kvs->front().value, resource, seen.key);
  if (!lease) return lease.error();
  seen.lease = std::move(*lease);
  seen.modRevision = kvs->front().modRevision;
  return seen;
}

Result<bool> EtcdStore::putIfUnchanged(const Observed& current, const Lease& next) {
  auto body = post("/v3/kv/txn", etcd::putIfUnchangedBody(current.key, encodeRecord(next), current.modRevision));
  if (!body) return body.error();
  return etcd::parseTxnSucceeded(*body, options_.endpoint);
}

Result<Lease> EtcdStore::transact(const Request& request) {
  for (int attempt = 0; attempt < options_.maxAttempts; ++attempt) {
    auto current = read(request.resource);
    if (!current) return current.error();
    auto next = nextSharedRecord(current->lease, request, nowMs_(), options_.maxClockSkewMs);
    if (!next || request.kind == RequestKind::CheckFence) return next;
    auto won = putIfUnchanged(*current, *next);
    if (!won) return won.error();
    if (*won) return next;
    // Someone wrote the key between our read and our txn: decide again on what they wrote.
  }
  return makeError(ErrorCode::LeaseUnavailable,
                   options_.prefix + request.resource +
                       " is contended: it changed between read "
                       "and write " +
                       std::to_string(options_.maxAttempts) + " times in a row",
                   "try again; if it persists, look for a process writing the key in a loop",
                   options_.prefix + request.resource);
}

ListedRecord EtcdStore::listed(const std::string& key, const std::string& value) const {
  std::string resource = key.substr(options_.prefix.size());
  ListedRecord rec{resource, key, std::nullopt, std::nullopt};
  if (!validateResourceName(resource)) {
    rec.unreadable =
        makeError(ErrorCode::LeaseUnavailable, key + " is not a lease record: its name is not a resource name",
                  "inspect it and delete it by hand (`etcdctl del " + key + "`)", key);
    return rec;
  }
  auto lease = decodeValue(value, resource, key);
  if (lease)
    rec.lease = std::move(*lease);
  else
    rec.unreadable = lease.error();
  return rec;
}

Result<std::vector<ListedRecord>> EtcdStore::survey() {
  auto body = post("/v3/kv/range", etcd::rangePrefixBody(options_.prefix));
  if (!body) return body.error();
  auto kvs = etcd::parseRange(*body, options_.endpoint);
  if (!kvs) return kvs.error();
  std::vector<ListedRecord> records;
  for (const etcd::KeyValue& kv : *kvs) {
    if (!kv.key.starts_with(options_.prefix))
      return unavailable(options_.endpoint, "the etcd gateway at " + options_.endpoint + " answered a range of " +
                                                options_.prefix + " with the key " + kv.key);
    records.push_back(listed(kv.key, kv.value));
  }
  return records;
}

std::unique_ptr<EtcdStore> openEtcdStore(EtcdStoreOptions options, Clock nowMs) {
  return std::make_unique<CurlEtcdStore>(std::move(options), std::move(nowMs));
}

}  // namespace lw::lease
