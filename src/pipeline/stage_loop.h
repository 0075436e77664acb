// Runs a plan: stages in order (a stage whose `needs` did not all pass is
// skipped), the steps of a stage concurrently up to maxConcurrency, except
// steps that could write the shared working tree, which run alone.
#pragma once

#include <memory>
#include <ostream>
#include <vector>

#include "pipeline/run/run_plan.h"
#include "pipeline/run/run_record.h"
#include "pipeline/step/step_runner.h"
#include "sandbox/backend.h"

namespace lw::pipeline {

// Negotiates every step before any starts (probes are shared and cached),
// then runs them. Progress lines go to `progress` as steps start and end.
RunRecord runPlan(const RunPlan& plan, std::vector<std::unique_ptr<sandbox::Backend>>& backends, const RunContext& ctx,
                  const BridgeFactory& makeBridge, std::ostream& progress);

}  // namespace lw::pipeline
