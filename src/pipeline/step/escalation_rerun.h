// The one re-run of an escalated step (escalation.h decides it): the step
// is negotiated again with the higher minimum level and run against the same
// verified baseline; the first attempt's directory is kept beside it. A level
// no backend here gives ends the step ISOLATION_UNAVAILABLE, never a run at a
// lower level.
#pragma once

#include <functional>
#include <string>

#include "pipeline/step/step_runner.h"

namespace lw::pipeline {

// What a re-run needs from the run that runs it.
struct RerunTools {
  sandbox::ProbeFor probeFor;
  std::function<sandbox::Backend*(BackendId)> backendFor;
  BridgeFactory makeBridge;
  std::function<void(const std::string&)> say;  // a progress line
};

// `first` when no escalation applies; with its escalation (and why not)
// when the policy refuses a re-run; otherwise the re-run's record with the
// first attempt in its escalation. Runs the step at most once more.
StepRecord escalateIfDue(StepRecord first, const PlannedStep& planned, StepBaseline& baseline, const RunContext& ctx,
                         const RerunTools& tools);

}  // namespace lw::pipeline
