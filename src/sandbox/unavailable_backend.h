// The backend that stands for one this host or this build cannot have: in
// the interface every backend shares, so that a backend of another platform
// (macos-seatbelt on Linux) and either build's registry (registry/) can name it.
#pragma once

#include <memory>
#include <string>

#include "sandbox/backend.h"

namespace lw::sandbox {

// A backend that can never run here, with the reason (for probes and errors):
// its probe says every capability is absent for that reason, and launch refuses
// with SANDBOX_BACKEND_UNAVAILABLE.
std::unique_ptr<Backend> makeUnavailableBackend(BackendId id, std::string reason);

}  // namespace lw::sandbox
