// What `loopwright explain` says about a step's isolation: the level and
// why (step, taskpack, floor), the preferred backends that give it or more,
// in the order negotiation tries them, and the escalation chain
// (pipeline/step/escalation_plan.h) with the backends its level would be tried on.
#pragma once

#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "pipeline/step/escalation_plan.h"
#include "policy/model/effective_policy.h"

namespace lw::cli {

struct IsolationChain {
  Isolation level = Isolation::L1;
  std::string why;                  // the rule that set the level
  std::vector<BackendId> backends;  // preferred backends at `level` or above, in order
  pipeline::EscalationPlan escalation;
  std::vector<BackendId> escalationBackends;  // at the escalation's level or above (when it has one)
};

IsolationChain isolationChainOf(const EffectiveStep& step);

// "docker" or "(none listed: a run ends ISOLATION_UNAVAILABLE)".
std::string backendsWords(const std::vector<BackendId>& backends);

// {"level", "why", "backends", "escalation": {"chain", "to", "on", "allowed", "why", "backends"}}.
boost::json::object toJson(const IsolationChain& chain);

}  // namespace lw::cli
