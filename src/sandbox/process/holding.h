// A running step that keeps something of the launcher's alive exactly as
// long as the step's handle (an egress relay on the orchestrator's side).
#pragma once

#include <memory>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

// `inner` in every respect, holding `kept` until it is destroyed (after inner).
std::unique_ptr<RunningProcess> holding(std::unique_ptr<RunningProcess> inner, std::shared_ptr<void> kept);

}  // namespace lw::sandbox::process
