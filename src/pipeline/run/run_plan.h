// Which stages and steps an event runs, in what order, and which steps may
// share the working tree at the same time. Pure: taskpack + resolved policies
// + event name/action in, plan out.
#pragma once

#include <string>
#include <vector>

#include "policy/model/effective_policy.h"
#include "policy/model/taskpack.h"

namespace lw::pipeline {

struct PlannedStep {
  const Step* step = nullptr;  // into the Taskpack the plan was built from
  EffectiveStep policy;
};

struct PlannedStage {
  std::string name;
  std::vector<std::string> needs;
  std::vector<PlannedStep> steps;
};

struct RunPlan {
  std::vector<PlannedStage> stages;  // only those the event selects, in taskpack order
  int maxConcurrency = 1;
  std::vector<std::string> skippedStages;  // not selected by the event
};

// `policies` are resolvePolicies() of the same taskpack (stage/step order).
// maxConcurrency is the taskpack's, else `cores`.
RunPlan buildPlan(const Taskpack& taskpack, const std::vector<EffectiveStep>& policies, const std::string& eventName,
                  const std::string& action, int cores);

// A step may run beside others only if the sandbox it got keeps it from
// writing the shared working tree: a reviewer/triage step on a backend that
// enforces filesystemWriteContainment. Authors, and any step on a backend
// without write containment (direct-dedicated), run alone, so that the
// before/after verification of each step sees only its own changes.
bool mayShareWorkingTree(Role role, bool writeContained);

}  // namespace lw::pipeline
