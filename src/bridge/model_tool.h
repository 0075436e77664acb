// model.complete: a completion on the step's lane, through its breaker.
// When the lane's breaker escalates (it opened escalateAfterCycles times),
// a step marked `idempotent: true` whose lane names a `fallbackLane` is
// rerouted there once for the rest of the step, the failed call repeated
// once on it; any other step is stopped (BREAKER_OPEN) with a BLOCKER.
#pragma once

#include "bridge/lane_client.h"
#include "bridge/tool_registry.h"

namespace lw::bridge {

// `primary` and `fallback` (nullptr: no reroute allowed, the caller has
// checked idempotent and fallbackLane) must outlive the tool. One tool per
// step: it remembers whether the step was rerouted.
Tool modelCompleteTool(LaneClient& primary, LaneClient* fallback);

}  // namespace lw::bridge
