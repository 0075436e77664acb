// The pure half of the macos-seatbelt backend: one step -> an SBPL profile
// for `sandbox-exec -p`. Deny by default; reads of the system paths and the
// step's trees; writes to the writable scope and the out dir; then the
// protected and denied paths, placed after the allows because in SBPL the
// last matching rule wins.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "sandbox/backend.h"

namespace lw::sandbox::seatbelt {

// What a program needs to start on macOS (dyld's shared cache lives under
// /System, Homebrew under /opt/homebrew). Read-only.
std::vector<std::string> defaultSystemReadPaths();

struct SbplInput {
  // Paths as the kernel reports them (Seatbelt matches resolved paths:
  // /tmp is /private/tmp): canonicalSpec() makes them so.
  StepSpec spec;
  std::vector<std::string> systemReadPaths = defaultSystemReadPaths();
};

// The profile text. Fails with SANDBOX_LAUNCH_FAILED for a relative path or
// one holding a control character (no SBPL string can carry it faithfully).
Result<std::string> sbplProfile(const SbplInput& input);

// An SBPL string literal: "…" with \ and " escaped.
std::string sbplQuote(const std::string& s);

// `spec` with every path made absolute (policy paths are relative to the
// workspace) and resolved through existing symlinks, as Seatbelt sees them;
// a protected or denied symlink is kept as well as its target.
StepSpec canonicalSpec(const StepSpec& spec);

// The command line: /usr/bin/sandbox-exec -p PROFILE argv…
std::vector<std::string> sandboxExecArgv(const std::string& profile, const std::vector<std::string>& argv);

}  // namespace lw::sandbox::seatbelt
