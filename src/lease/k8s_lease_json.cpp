#include "lease/k8s_lease_json.h"

#include <charconv>
#include <cstdio>
#include <ctime>

#include "core/fnv1a.h"
#include "core/hex.h"
#include "lease/transitions.h"

namespace lw::lease::k8s {
namespace {

namespace json = boost::json;

Error corrupt(const std::string& where, const std::string& why) {
  return makeError(
      ErrorCode::LeaseUnavailable,
      "the Lease " + where + " is not a loopwright lease record (" + why + "); every operation on it is refused",
      "inspect it (`kubectl get lease -o yaml`); once you know no holder is alive and "
      "the resource is gone, delete it by hand (`kubectl delete lease`)",
      where);
}

// The start of the FNV-1a tag of a Lease name: not FNV's offset basis
// (14695981039346656037) but that number a digit short, as written in the
// first release. Kept: the Leases already in clusters are named with it, and
// another name would be another, claimable, lease.
constexpr std::uint64_t kLeaseNameBasis = 1469598103934665603ull;

const json::string* stringField(const json::object& o, const char* name) {
  const json::value* v = o.if_contains(name);
  return v != nullptr ? v->if_string() : nullptr;
}

const json::object& section(const json::object& o, const char* name) {
  static const json::object empty;
  const json::value* v = o.if_contains(name);
  return v != nullptr && v->is_object() ? v->as_object() : empty;
}

std::optional<std::uint64_t> decimal(std::string_view text) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return n;
}

std::optional<Phase> phaseNamed(std::string_view name) {
  for (Phase p : {Phase::Free, Phase::Active, Phase::TearingDown})
    if (name == phaseName(p)) return p;
  return std::nullopt;
}

}  // namespace

std::string objectName(const std::string& namePrefix, const std::string& resource) {
  std::string name = namePrefix;
  for (char c : resource) {
    char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    name += ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9')) ? lower : '-';
  }
  return name + "-" + hexNumber(fnv1a64(resource, kLeaseNameBasis), 16);
}

std::string formatMicroTime(std::int64_t ms) {
  std::string t = formatTimeMs(ms);  // "...:SS.mmmZ"
  return t.substr(0, t.size() - 1) + "000Z";
}

std::optional<std::int64_t> parseMicroTime(const std::string& text) {
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &consumed) != 6 ||
      consumed != 19)
    return std::nullopt;
  std::string rest = text.substr(19);
  std::int64_t micros = 0;
  if (rest.starts_with(".")) {
    std::size_t digits = rest.find_first_not_of("0123456789", 1);
    if (digits == std::string::npos || digits == 1 || digits > 10) return std::nullopt;
    std::string frac = rest.substr(1, digits - 1);
    frac.resize(6, '0');
    micros = static_cast<std::int64_t>(*decimal(frac.substr(0, 6)));
    if (digits - 1 > 6 && rest.substr(7, digits - 7).find_first_not_of('0') != std::string::npos) micros += 1;
    rest = rest.substr(digits);
  }
  if (rest != "Z" || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return std::nullopt;
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  const std::int64_t seconds = ::timegm(&tm);
  return seconds * 1000 + (micros + 999) / 1000;
}

json::object encodeLease(const Lease& lease, const std::string& objectName, const std::string& ns, std::int64_t nowMs) {
  json::object meta{{"name", objectName},
                    {"namespace", ns},
                    {"labels", json::object{{kManagedByLabel, "loopwright"}}},
                    {"annotations", json::object{{kResourceAnnotation, lease.resource},
                                                 {kPhaseAnnotation, phaseName(lease.phase)},
                                                 {kTokenAnnotation, std::to_string(lease.token)}}}};
  json::object spec;
  if (lease.phase != Phase::Free) {
    const std::int64_t left = lease.expiresAtMs - nowMs;
    const std::int64_t seconds = std::max<std::int64_t>(1, (left + 999) / 1000);
    spec["holderIdentity"] = lease.holder;
    spec["leaseDurationSeconds"] = seconds;
    spec["acquireTime"] = formatMicroTime(lease.claimedAtMs);
    spec["renewTime"] = formatMicroTime(lease.expiresAtMs - seconds * 1000);
  }
  return json::object{{"apiVersion", "coordination.k8s.io/v1"}, {"kind", "Lease"}, {"metadata", meta}, {"spec", spec}};
}

std::string resourceOf(const json::object& object) {
  const json::string* r = stringField(section(section(object, "metadata"), "annotations"), kResourceAnnotation);
  return r != nullptr ? std::string(*r) : "";
}

Result<Lease> decodeLease(const json::object& object, const std::string& resource, const std::string& where) {
  const json::object& annotations = section(section(object, "metadata"), "annotations");
  const json::string* named = stringField(annotations, kResourceAnnotation);
  const json::string* phaseText = stringField(annotations, kPhaseAnnotation);
  const json::string* tokenText = stringField(annotations, kTokenAnnotation);
  if (named == nullptr || phaseText == nullptr || tokenText == nullptr)
    return corrupt(where, "an annotation loopwright.dev/resource, phase or fencing-token is missing");
  if (*named != resource) return corrupt(where, "it is the lease of " + std::string(*named) + ", not of " + resource);
  auto phase = phaseNamed(*phaseText);
  if (!phase) return corrupt(where, "unknown phase \"" + std::string(*phaseText) + "\"");
  auto token = decimal(*tokenText);
  if (!token) return corrupt(where, "the fencing token is not a number");
  if (*phase == Phase::Free) return Lease{resource, Phase::Free, "", *token, 0, 0};
  const json::object& spec = section(object, "spec");
  const json::string* holder = stringField(spec, "holderIdentity");
  const json::string* acquired = stringField(spec, "acquireTime");
  const json::string* renewed = stringField(spec, "renewTime");
  const json::value* duration = spec.if_contains("leaseDurationSeconds");
  if (holder == nullptr || acquired == nullptr || renewed == nullptr || duration == nullptr || !duration->is_int64())
    return corrupt(where, "holderIdentity, acquireTime, renewTime or leaseDurationSeconds is missing");
  auto claimedAt = parseMicroTime(std::string(*acquired));
  auto renewAt = parseMicroTime(std::string(*renewed));
  if (!claimedAt || !renewAt || duration->as_int64() <= 0) return corrupt(where, "a time or the duration is malformed");
  return Lease{resource, *phase, std::string(*holder), *token, *renewAt + duration->as_int64() * 1000, *claimedAt};
}

}  // namespace lw::lease::k8s
