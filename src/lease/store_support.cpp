#include "lease/store_support.h"

#include <chrono>

namespace lw::lease {
namespace {

bool nameCharOk(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

}  // namespace

std::int64_t systemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status validateResourceName(const std::string& resource) {
  bool ok = !resource.empty() && resource.size() <= 128 && resource[0] != '.';
  for (char c : resource) ok = ok && nameCharOk(c);
  if (ok) return Ok{};
  return makeError(ErrorCode::UsageError, "invalid lease resource name \"" + resource + "\"",
                   "use 1 to 128 of A-Z a-z 0-9 . _ -, not starting with a dot", resource);
}

namespace {

Request holderRequest(RequestKind kind, const Lease& held, Ttl ttl = Ttl{0}) {
  return Request{kind, held.resource, held.holder, held.token, ttl.count()};
}

Status statusOf(const Result<Lease>& r) {
  if (!r) return r.error();
  return Ok{};
}

}  // namespace

Result<Lease> RecordStore::named(const Request& request) {
  if (auto valid = validateResourceName(request.resource); !valid) return valid.error();
  return transact(request);
}

Result<Lease> RecordStore::claim(const std::string& resource, const std::string& holder, Ttl ttl) {
  return named(Request{RequestKind::Claim, resource, holder, 0, ttl.count()});
}

Result<Lease> RecordStore::renew(const Lease& held, Ttl ttl) {
  return named(holderRequest(RequestKind::Renew, held, ttl));
}

Result<Lease> RecordStore::beginTeardown(const Lease& held) {
  return named(holderRequest(RequestKind::BeginTeardown, held));
}

Status RecordStore::release(const Lease& held) { return statusOf(named(holderRequest(RequestKind::Release, held))); }

Status RecordStore::checkFence(const Lease& held) {
  return statusOf(named(holderRequest(RequestKind::CheckFence, held)));
}

Result<std::vector<Lease>> RecordStore::list() {
  auto records = survey();
  if (!records) return records.error();
  std::vector<Lease> leases;
  for (ListedRecord& rec : *records) {
    if (rec.unreadable) return *rec.unreadable;
    leases.push_back(std::move(*rec.lease));
  }
  return leases;
}

}  // namespace lw::lease
