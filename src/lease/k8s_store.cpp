#include "lease/k8s_store.h"

#include <algorithm>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/http_curl.h"
#include "lease/k8s_lease_json.h"
#include "lease/transitions.h"

namespace lw::lease {
namespace {

namespace json = boost::json;

// Writes ask the server to refuse unknown fields, as the tests' local API
// server does: a field it would drop is a mistake here.
constexpr const char* kWriteQuery = "?fieldManager=loopwright&fieldValidation=Strict";

std::string messageOf(const json::object& status) {
  const json::value* m = status.if_contains("message");
  return m != nullptr && m->is_string() ? std::string(m->as_string()) : "";
}

struct OwnedTransport {
  explicit OwnedTransport(const k8s::Access& access) : transport(k8s::apiHttpPolicy(access)) {}
  http::CurlTransport transport;
};

class CurlK8sStore final : private OwnedTransport, public K8sStore {
 public:
  CurlK8sStore(K8sStoreOptions options, Clock nowMs)
      : OwnedTransport(options.access), K8sStore(transport, std::move(options), std::move(nowMs)) {}
};

}  // namespace

// The object as read: its record (nullopt: no such object) and the
// resourceVersion a replace must carry.
struct K8sStore::Observed {
  std::string name;
  std::optional<Lease> lease;
  std::string resourceVersion;
};

K8sStore::K8sStore(http::Transport& transport, K8sStoreOptions options, Clock nowMs)
    : transport_(transport), options_(std::move(options)), nowMs_(std::move(nowMs)) {}

std::string K8sStore::collectionPath() const {
  return "/apis/coordination.k8s.io/v1/namespaces/" + http::percentEncode(options_.ns) + "/leases";
}

Error K8sStore::unavailable(std::string message) const {
  return makeError(ErrorCode::LeaseUnavailable, std::move(message),
                   "check that the API server answers and that " + options_.access.source +
                       " may get, list, create and update leases in the namespace " + options_.ns +
                       " (docs/leases.md, \"Kubernetes credentials\"); until then no lease is claimed, "
                       "renewed or released (fail closed)",
                   options_.access.server);
}

Result<K8sStore::Answer> K8sStore::exchange(const std::string& method, const std::string& path,
                                            const std::string& body) {
  auto token = k8s::bearerToken(options_.access);
  if (!token) return token.error();
  http::Request request;
  request.method = method;
  request.url = options_.access.server + path;
  request.headers = {{"Authorization", "Bearer " + *token}, {"Accept", "application/json"}};
  if (!body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  request.body = body;
  request.timeout = options_.requestTimeout;
  http::Response response = transport_.send(request);
  const std::string what = method + " " + path.substr(0, path.find('?'));
  if (!response.answered())
    return unavailable("the Kubernetes API server at " + options_.access.server + " did not answer " + what + " (" +
                       std::string(http::toString(response.failure)) + ": " + response.error + ")");
  Answer answer{response.status, {}};
  boost::system::error_code ec;
  json::value parsed = json::parse(response.body, ec);
  if (!ec && parsed.is_object()) answer.body = std::move(parsed.as_object());
  const bool expected =
      response.status == 200 || response.status == 201 || response.status == 404 || response.status == 409;
  if (!expected || (ec && response.status < 300))
    return unavailable("the Kubernetes API server at " + options_.access.server + " answered " + what + " with HTTP " +
                       std::to_string(response.status) + ": " +
                       (answer.body.empty() ? response.body.substr(0, 200) : messageOf(answer.body)));
  return answer;
}

Result<K8sStore::Observed> K8sStore::read(const std::string& resource) {
  Observed seen{k8s::objectName(options_.namePrefix, resource), std::nullopt, ""};
  auto answer = exchange("GET", collectionPath() + "/" + seen.name, "");
  if (!answer) return answer.error();
  if (answer->status == 404) return seen;
  if (answer->status != 200)
    return unavailable("the Kubernetes API server answered a read of the Lease " + seen.name + " with HTTP " +
                       std::to_string(answer->status));
  auto lease = k8s::decodeLease(answer->body, resource, options_.ns + "/" + seen.name);
  if (!lease) return lease.error();
  seen.lease = std::move(*lease);
  const json::value* meta = answer->body.if_contains("metadata");
  const json::value* rv =
      meta != nullptr && meta->is_object() ? meta->as_object().if_contains("resourceVersion") : nullptr;
  if (rv == nullptr || !rv->is_string() || rv->as_string().empty())
    return unavailable("the Lease " + options_.ns + "/" + seen.name + " came back without a resourceVersion");
  seen.resourceVersion = std::string(rv->as_string());
  return seen;
}

Result<bool> K8sStore::writeIfUnchanged(const Observed& current, const Lease& next) {
  json::object object = k8s::encodeLease(next, current.name, options_.ns, nowMs_());
  const bool create = !current.lease.has_value();
  if (!create) object["metadata"].as_object()["resourceVersion"] = current.resourceVersion;
  auto answer = create ? exchange("POST", collectionPath() + kWriteQuery, json::serialize(object))
                       : exchange("PUT", collectionPath() + "/" + current.name + kWriteQuery, json::serialize(object));
  if (!answer) return answer.error();
  if (answer->status == 409) return false;  // AlreadyExists or Conflict: someone wrote it since our read
  if (answer->status == 200 || answer->status == 201) return true;
  return unavailable("the Kubernetes API server answered a write of the Lease " + current.name + " with HTTP " +
                     std::to_string(answer->status) + ": " + messageOf(answer->body));
}

Result<Lease> K8sStore::transact(const Request& request) {
  for (int attempt = 0; attempt < options_.maxAttempts; ++attempt) {
    auto current = read(request.resource);
    if (!current) return current.error();
    auto next = nextSharedRecord(current->lease, request, nowMs_(), options_.maxClockSkewMs);
    if (!next || request.kind == RequestKind::CheckFence) return next;
    auto won = writeIfUnchanged(*current, *next);
    if (!won) return won.error();
    // What the object now holds: the expiry as written (to the millisecond).
    if (*won) return next;
  }
  const std::string name = options_.ns + "/" + k8s::objectName(options_.namePrefix, request.resource);
  return makeError(ErrorCode::LeaseUnavailable,
                   "the Lease " + name + " (" + request.resource +
                       ") is contended: it changed between read and write " + std::to_string(options_.maxAttempts) +
                       " times in a row",
                   "try again; if it persists, look for a process writing the Lease in a loop", name);
}

Result<std::vector<ListedRecord>> K8sStore::survey() {
  auto answer = exchange(
      "GET",
      collectionPath() + "?labelSelector=" + http::percentEncode(std::string(k8s::kManagedByLabel) + "=loopwright"),
      "");
  if (!answer) return answer.error();
  const json::value* items = answer->status == 200 ? answer->body.if_contains("items") : nullptr;
  if (items == nullptr || !items->is_array())
    return unavailable("the Kubernetes API server answered the list of Leases in " + options_.ns + " with HTTP " +
                       std::to_string(answer->status) + " and no items");
  std::vector<ListedRecord> records;
  for (const json::value& item : items->as_array()) {
    if (!item.is_object()) continue;
    const json::value* meta = item.as_object().if_contains("metadata");
    const json::value* name = meta != nullptr && meta->is_object() ? meta->as_object().if_contains("name") : nullptr;
    if (name == nullptr || !name->is_string() || !name->as_string().starts_with(options_.namePrefix)) continue;
    const std::string where = options_.ns + "/" + std::string(name->as_string());
    const std::string resource = k8s::resourceOf(item.as_object());
    ListedRecord rec{resource.empty() ? where : resource, where, std::nullopt, std::nullopt};
    auto lease = k8s::decodeLease(item.as_object(), resource, where);
    if (lease && k8s::objectName(options_.namePrefix, resource) == name->as_string())
      rec.lease = std::move(*lease);
    else
      rec.unreadable =
          lease
              ? unavailable("the Lease " + where + " names the resource " + resource + ", whose object name is another")
              : lease.error();
    records.push_back(std::move(rec));
  }
  std::sort(records.begin(), records.end(),
            [](const ListedRecord& a, const ListedRecord& b) { return a.resource < b.resource; });
  return records;
}

std::unique_ptr<K8sStore> openK8sStore(K8sStoreOptions options, Clock nowMs) {
  return std::make_unique<CurlK8sStore>(std::move(options), std::move(nowMs));
}

}  // namespace lw::lease
