// `loopwright eval --lane NAME` (docs/evals.md, "Running it"): the same
// cases measured on another model lane. Every step that calls a model is
// bound to the lane asked for, before its policy is resolved, so the step's
// effective lane and the bridge's route both follow. Pure.
#pragma once

#include <string>

#include "core/result.h"
#include "policy/model/taskpack.h"

namespace lw {

// Binds each step of `taskpack` that names a lane or calls model.complete
// to `lane` (steps without a model keep none). USAGE_ERROR located at the
// taskpack's spec.lanes, listing its lanes, when it has no lane `lane`.
Status bindModelSteps(Taskpack& taskpack, const std::string& lane);

}  // namespace lw
