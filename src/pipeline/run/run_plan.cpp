#include "pipeline/run/run_plan.h"

#include <algorithm>

#include "policy/resolve/resolve.h"

namespace lw::pipeline {

RunPlan buildPlan(const Taskpack& taskpack, const std::vector<EffectiveStep>& policies, const std::string& eventName,
                  const std::string& action, int cores) {
  RunPlan plan;
  plan.maxConcurrency = std::max(1, taskpack.maxConcurrency.value_or(cores));
  std::size_t index = 0;
  for (const Stage& stage : taskpack.stages) {
    bool selected = stageMatchesEvent(stage, eventName, action);
    PlannedStage planned{stage.name, stage.needs, {}};
    for (const Step& step : stage.steps) {
      const EffectiveStep& policy = policies.at(index++);
      if (selected) planned.steps.push_back({&step, policy});
    }
    if (selected)
      plan.stages.push_back(std::move(planned));
    else
      plan.skippedStages.push_back(stage.name);
  }
  return plan;
}

bool mayShareWorkingTree(Role role, bool writeContained) { return role != Role::Author && writeContained; }

}  // namespace lw::pipeline
