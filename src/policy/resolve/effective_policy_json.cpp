#include "policy/resolve/effective_policy_json.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

namespace lw {
namespace {

template <class Items>
boost::json::array namesArray(const Items& items) {
  boost::json::array a;
  for (const auto& i : items) a.emplace_back(toString(i));
  return a;
}

boost::json::array stringsArray(const std::vector<std::string>& items) {
  boost::json::array a;
  for (const auto& i : items) a.emplace_back(i);
  return a;
}

boost::json::value toJson(const EgressRule& r) {
  boost::json::object o{{"host", r.host}, {"port", r.port}, {"origin", r.origin}};
  if (!r.http.empty()) {
    boost::json::array http;
    for (const EgressHttpRule& h : r.http)
      http.push_back(boost::json::object{{"method", h.method.empty() ? "any" : h.method}, {"path", h.pathPrefix}});
    o["http"] = std::move(http);
  }
  return o;
}

}  // namespace

boost::json::value toJson(const EffectiveSandbox& s) {
  boost::json::object o;
  o["preferredBackends"] = namesArray(s.preferredBackends);
  o["networkMode"] = toString(s.networkMode);
  o["requiredCapabilities"] = namesArray(s.requiredCapabilities);
  o["deniedReadPaths"] = stringsArray(s.deniedReadPaths);
  o["protectedPaths"] = stringsArray(s.protectedPaths);
  o["isolation"] = toString(s.minIsolation);
  o["allowDedicatedDirectOverride"] = s.allowDedicatedDirectOverride;
  if (s.runtimeProfile) {
    boost::json::object p;
    p["name"] = s.runtimeProfile->name;
    p["image"] = s.runtimeProfile->image;
    o["runtimeProfile"] = std::move(p);
  } else {
    o["runtimeProfile"] = nullptr;
  }
  boost::json::array egress;
  for (const EgressRule& r : s.egress) egress.push_back(toJson(r));
  o["egress"] = std::move(egress);
  return o;
}

boost::json::value toJson(const EscalateSpec& e) {
  boost::json::object o;
  o["on"] = namesArray(e.on);
  o["to"] = e.to ? boost::json::value(toString(*e.to)) : boost::json::value(nullptr);
  return o;
}

boost::json::value toJson(const EffectiveStep& step) {
  boost::json::object o;
  o["stage"] = step.stage;
  o["step"] = step.step;
  o["role"] = toString(step.role);
  o["sandbox"] = toJson(step.sandbox);
  o["limits"] = {{"wallTimeMs", step.limits.wallTimeMs},
                 {"maxModelCalls", step.limits.maxModelCalls},
                 {"maxToolCalls", step.limits.maxToolCalls},
                 {"maxOutputBytes", step.limits.maxOutputBytes}};
  // The OS limits beside the budgets: sizes in bytes, null when unlimited.
  for (ResourceLimit r : kAllResourceLimits) {
    auto v = valueOf(step.resources, r);
    o["limits"].as_object()[keyOf(r)] = v ? boost::json::value(*v) : boost::json::value(nullptr);
  }
  const auto& l = step.guardrails.loop;
  const auto& b = step.guardrails.breaker;
  o["guardrails"] = {{"loop",
                      {{"warnRepeats", l.warnRepeats},
                       {"stopRepeats", l.stopRepeats},
                       {"windowSeconds", l.windowSeconds},
                       {"suspiciousCallsPerTool", l.suspiciousCallsPerTool},
                       {"maxCallsPerTool", l.maxCallsPerTool}}},
                     {"breaker",
                      {{"failures", b.failures},
                       {"windowSeconds", b.windowSeconds},
                       {"cooldownSeconds", b.cooldownSeconds},
                       {"escalateAfterCycles", b.escalateAfterCycles}}}};
  o["tools"] = stringsArray(step.tools);
  o["lane"] = step.lane ? boost::json::value(*step.lane) : boost::json::value(nullptr);
  o["idempotent"] = step.idempotent;
  o["escalate"] = step.escalate ? toJson(*step.escalate) : boost::json::value(nullptr);
  boost::json::object why;
  for (const auto& [field, rule] : step.origins) why[field] = rule;
  o["origins"] = std::move(why);
  return o;
}

boost::json::value toJson(const TaskContract& c) {
  auto number = [](const std::optional<std::int64_t>& n) { return n ? boost::json::value(*n) : nullptr; };
  boost::json::object o;
  o["expects"] = stringsArray(c.expects);
  o["validate"] = c.validate.empty() ? boost::json::value(nullptr) : boost::json::value(stringsArray(c.validate));
  o["maxChangedFiles"] = number(c.maxChangedFiles);
  o["maxChangedLines"] = number(c.maxChangedLines);
  o["maxBinaryBytes"] = number(c.maxBinaryBytes);
  o["gitRuleFiles"] = stringsArray(c.gitRuleFiles);
  o["onStop"] = c.onStop ? boost::json::value(*c.onStop) : nullptr;
  return o;
}

boost::json::value toJson(const Floor& floor) {
  boost::json::object o;
  o["minIsolation"] =
      floor.minIsolation ? boost::json::value(toString(*floor.minIsolation)) : boost::json::value(nullptr);
  o["requiredCapabilities"] = namesArray(floor.requiredCapabilities);
  o["allowDirectDedicated"] = floor.allowDirectDedicated;
  return o;
}

}  // namespace lw
