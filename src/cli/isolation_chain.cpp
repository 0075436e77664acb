#include "cli/isolation_chain.h"

#include <boost/json/array.hpp>

namespace lw::cli {
namespace {

std::vector<BackendId> atOrAbove(const std::vector<BackendId>& preferred, Isolation level) {
  std::vector<BackendId> out;
  for (BackendId b : preferred)
    if (!isAbove(level, isolationOf(b))) out.push_back(b);
  return out;
}

boost::json::array names(const auto& items) {
  boost::json::array a;
  for (const auto& i : items) a.emplace_back(toString(i));
  return a;
}

}  // namespace

IsolationChain isolationChainOf(const EffectiveStep& step) {
  IsolationChain c;
  c.level = step.sandbox.minIsolation;
  auto it = step.origins.find("isolation");
  c.why = it == step.origins.end() ? "" : it->second;
  c.backends = atOrAbove(step.sandbox.preferredBackends, c.level);
  c.escalation = pipeline::escalationPlan(step);
  if (c.escalation.to) c.escalationBackends = atOrAbove(step.sandbox.preferredBackends, *c.escalation.to);
  return c;
}

std::string backendsWords(const std::vector<BackendId>& backends) {
  std::string out;
  for (BackendId b : backends) out += (out.empty() ? "" : ", ") + std::string(toString(b));
  return out.empty() ? "(none listed: a run ends ISOLATION_UNAVAILABLE)" : out;
}

boost::json::object toJson(const IsolationChain& c) {
  const pipeline::EscalationPlan& e = c.escalation;
  boost::json::object esc;
  esc["chain"] = pipeline::describeChain(e);
  esc["allowed"] = e.to.has_value();
  esc["to"] = e.to ? boost::json::value(toString(*e.to)) : boost::json::value(nullptr);
  boost::json::array on;
  for (const std::string& t : e.triggers) on.emplace_back(t);
  esc["on"] = std::move(on);
  esc["why"] = e.to ? boost::json::value(nullptr) : boost::json::value(e.notAllowedBecause);
  esc["backends"] = names(c.escalationBackends);
  return {
      {"level", toString(c.level)}, {"why", c.why}, {"backends", names(c.backends)}, {"escalation", std::move(esc)}};
}

}  // namespace lw::cli
