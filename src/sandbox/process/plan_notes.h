// A launched step carrying what its backend's planner noted about it (a
// path it could not bind or mask as asked), so that the pipeline records
// the notes without knowing which backend planned the step.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

// `inner`, whose planNotes() are `notes` (inner's own when `notes` is
// empty); everything else is inner's.
std::unique_ptr<RunningProcess> withPlanNotes(std::unique_ptr<RunningProcess> inner, std::vector<std::string> notes);

}  // namespace lw::sandbox::process
