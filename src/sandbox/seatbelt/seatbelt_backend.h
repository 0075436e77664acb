// The macos-seatbelt backend: each step under `/usr/bin/sandbox-exec -p
// PROFILE` (sbpl_profile.h). Only macOS has sandbox-exec; elsewhere the
// backend exists and probes unavailable with that reason.
//
// The implementation is chosen by platform file: seatbelt_backend_darwin.cpp
// on macOS, seatbelt_backend_other.cpp elsewhere. Each guards its whole body
// with the platform macro because the build globs every .cpp of a module.
#pragma once

#include <memory>

#include "core/environment.h"
#include "sandbox/backend.h"

namespace lw::sandbox::seatbelt {

inline constexpr std::string_view kSandboxExec = "/usr/bin/sandbox-exec";

// The registry's factory.
std::unique_ptr<Backend> makeSeatbeltBackend(const Environment& env);

}  // namespace lw::sandbox::seatbelt
