// ChildSetup steps shared by the backends that exec the step themselves
// (bubblewrap does its own with --cap-drop ALL).
#pragma once

#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

// Empties the bounding, ambient, inheritable, permitted and effective
// capability sets and locks root's special treatment off (SECBIT_NOROOT), so
// the step holds no capability even when the orchestrator runs as root.
// Fails with the errno of the first call the kernel refused.
ChildSetup dropAllCapabilities();

}  // namespace lw::sandbox::process
