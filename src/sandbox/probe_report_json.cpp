#include "sandbox/probe_report_json.h"

#include <boost/json.hpp>

namespace lw::sandbox {
namespace {

namespace json = boost::json;

json::object statusJson(const SupportStatus& s) {
  return {{"status", std::string(toString(s.support))}, {"reason", s.reason}};
}

std::optional<SupportStatus> statusFrom(const json::value& v) {
  const json::object* o = v.if_object();
  if (o == nullptr) return std::nullopt;
  const json::value* st = o->if_contains("status");
  const json::value* why = o->if_contains("reason");
  if (st == nullptr || !st->is_string() || why == nullptr || !why->is_string()) return std::nullopt;
  SupportStatus s;
  std::string_view name = st->get_string();
  if (name == "enforced")
    s.support = Support::Enforced;
  else if (name == "partial")
    s.support = Support::Partial;
  else if (name == "absent")
    s.support = Support::Absent;
  else
    return std::nullopt;
  s.reason = std::string(why->get_string());
  return s;
}

}  // namespace

json::value toJson(const ProbeReport& r) {
  json::object caps;
  for (const auto& [c, s] : r.capabilities) caps[std::string(toString(c))] = statusJson(s);
  json::object modes;
  for (const auto& [m, s] : r.networkModes) modes[std::string(toString(m))] = statusJson(s);
  return json::object{{"backend", std::string(toString(r.backend))},
                      {"available", r.available},
                      {"unavailableReason", r.unavailableReason},
                      {"version", r.version},
                      {"capabilities", std::move(caps)},
                      {"networkModes", std::move(modes)},
                      {"kernelSeparation", r.kernelSeparation},
                      {"isolation", std::string(toString(observedIsolation(r)))}};
}

std::optional<ProbeReport> probeReportFromJson(const json::value& v) {
  const json::object* o = v.if_object();
  if (o == nullptr) return std::nullopt;
  ProbeReport r;
  const json::value* b = o->if_contains("backend");
  const json::value* a = o->if_contains("available");
  const json::value* why = o->if_contains("unavailableReason");
  const json::value* ver = o->if_contains("version");
  const json::value* caps = o->if_contains("capabilities");
  const json::value* modes = o->if_contains("networkModes");
  if (b == nullptr || !b->is_string() || a == nullptr || !a->is_bool() || why == nullptr || !why->is_string() ||
      ver == nullptr || !ver->is_string() || caps == nullptr || !caps->is_object() || modes == nullptr ||
      !modes->is_object()) {
    return std::nullopt;
  }
  auto id = parseBackendId(b->get_string());
  if (!id) return std::nullopt;
  r.backend = *id;
  r.available = a->get_bool();
  r.unavailableReason = std::string(why->get_string());
  r.version = std::string(ver->get_string());
  if (const json::value* k = o->if_contains("kernelSeparation"); k != nullptr && k->is_string())
    r.kernelSeparation = std::string(k->get_string());
  for (const auto& [k, s] : caps->get_object()) {
    auto c = parseCapability(k);
    auto st = statusFrom(s);
    if (!c || !st) return std::nullopt;
    r.capabilities[*c] = *st;
  }
  for (const auto& [k, s] : modes->get_object()) {
    auto m = parseNetworkMode(k);
    auto st = statusFrom(s);
    if (!m || !st) return std::nullopt;
    r.networkModes[*m] = *st;
  }
  return r;
}

}  // namespace lw::sandbox
