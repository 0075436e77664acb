// Runs one step end to end: plans it (step_plan.h), then carries out the
// effects in order (its directories, baseline, bridge, launch, wait under its
// wall time, masked logs, verification, outputs read) and settles what they
// observed into the StepRecord (step_settle.h, where the precedence of
// outcomes is). Nothing here throws or decides the run's exit status.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/environment.h"
#include "core/result.h"
#include "github/actions/github_event.h"
#include "pipeline/run/run_context.h"
#include "pipeline/run/run_plan.h"
#include "pipeline/run/run_record.h"
#include "pipeline/step/bridge_handle.h"
#include "pipeline/step/step_baseline.h"
#include "pipeline/step/step_plan.h"
#include "sandbox/backend.h"
#include "sandbox/negotiate.h"
#include "verify/secrets/secret_scanner.h"

namespace lw::pipeline {

// Creates the bridge of one step; `onStop` is called (on the bridge's
// thread) when a guardrail stops the step. With `socketPath` the bridge
// listens there (for backends that cannot be handed a descriptor: docker);
// otherwise it serves one end of a socket pair.
using BridgeFactory = std::function<Result<std::unique_ptr<BridgeHandle>>(
    const PlannedStep& step, const RunContext& ctx, std::function<void(const guard::Event&)> onStop,
    const std::string& socketPath)>;

// `negotiated` is this step's negotiation, done before any step started;
// `backend` the winner (null when negotiation failed); `baseline` the one it
// is verified against (shared by the steps that run beside it), taken of
// `workspace` (null: the checkout; an author's worktree: author_step.h).
StepRecord runStep(const PlannedStep& step, const Result<sandbox::Negotiated>& negotiated, sandbox::Backend* backend,
                   StepBaseline& baseline, const RunContext& ctx, const BridgeFactory& makeBridge,
                   const StepWorkspace* workspace = nullptr);

// The record of a step that did not run, for `why` (Error or Refused).
StepRecord notRunRecord(const PlannedStep& step, const RunContext& ctx, StepOutcome outcome, std::string why);

}  // namespace lw::pipeline
