#include "lease/lease_record.h"

#include <optional>

#include <boost/json.hpp>

#include "core/json_text.h"
#include "lease/transitions.h"

namespace json = boost::json;

namespace lw::lease {
namespace {

Error corrupt(const std::string& file, const std::string& what) {
  return makeError(ErrorCode::LeaseUnavailable,
                   "the lease record " + file + " is corrupt (" + what + "); every operation on it is refused",
                   "inspect the file (`loopwright lease list` shows it as corrupt); once you "
                   "know no holder is alive and the resource is gone, remove it by hand",
                   file);
}

std::optional<Phase> phaseNamed(const json::string& name) {
  for (Phase p : {Phase::Free, Phase::Active, Phase::TearingDown})
    if (name == phaseName(p)) return p;
  return std::nullopt;
}

// The field `key` of `o` when it is a non-negative integer.
std::optional<std::uint64_t> count(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_uint64()) return v->get_uint64();
  if (v->is_int64() && v->get_int64() >= 0) return static_cast<std::uint64_t>(v->get_int64());
  return std::nullopt;
}

const json::string* text(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_string() : nullptr;
}

// Every field present with its type, or what is wrong.
Result<Lease> fields(const json::object& o, const std::string& file) {
  const json::string* resource = text(o, "resource");
  const json::string* phase = text(o, "phase");
  const json::string* holder = text(o, "holder");
  auto token = count(o, "token");
  auto expires = count(o, "expiresAtMs");
  auto claimed = count(o, "claimedAtMs");
  if (!resource || !phase || !holder || !token || !expires || !claimed)
    return corrupt(file, "a field is missing or has the wrong type");
  constexpr std::uint64_t kMaxMs = std::uint64_t{1} << 62;
  if (*expires > kMaxMs || *claimed > kMaxMs) return corrupt(file, "a time is out of range");
  auto p = phaseNamed(*phase);
  if (!p) return corrupt(file, "unknown phase \"" + std::string(*phase) + "\"");
  return Lease{std::string(*resource),
               *p,
               std::string(*holder),
               *token,
               static_cast<std::int64_t>(*expires),
               static_cast<std::int64_t>(*claimed)};
}

}  // namespace

std::string encodeRecord(const Lease& lease) {
  json::object o;
  o["schema"] = kRecordSchema;
  o["resource"] = lease.resource;
  o["phase"] = phaseName(lease.phase);
  o["holder"] = lease.holder;
  o["token"] = lease.token;
  o["expiresAtMs"] = lease.expiresAtMs;
  o["claimedAtMs"] = lease.claimedAtMs;
  return toJsonText(o) + "\n";
}

Result<Lease> decodeRecord(const std::string& text, const std::string& resource, const std::string& file) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec) return corrupt(file, "not JSON: " + ec.message());
  const json::object* o = v.if_object();
  if (o == nullptr) return corrupt(file, "not a JSON object");
  auto schema = count(*o, "schema");
  if (!schema || *schema != static_cast<std::uint64_t>(kRecordSchema))
    return corrupt(file, "schema is not " + std::to_string(kRecordSchema));
  auto lease = fields(*o, file);
  if (!lease) return lease;
  if (lease->resource != resource)
    return corrupt(file, "it names the resource \"" + lease->resource + "\", not \"" + resource + "\"");
  return lease;
}

}  // namespace lw::lease
