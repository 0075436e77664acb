// The shell lines a backend's probe runs inside its sandbox to see the
// containment properties every Linux backend shares, each printing a token
// only when the property held.
#pragma once

#include <chrono>
#include <filesystem>
#include <set>
#include <string>

#include "sandbox/backend.h"

namespace lw::sandbox {

// Tokens: W1 (the workspace is writable), W2 (/usr is not), P1 and P2 (a
// protected path can be neither written nor moved), R1 (a host path outside
// the view is absent), R2 (a denied path is unreadable), N1 (loopback is the
// only interface), T1 (a pid namespace), S1 (a seccomp filter), C1 (no
// effective capabilities). `scratch` holds the host's secret, `ws` is the
// workspace with its `prot` and `denied` files. Nothing else is printed, so
// a token never appears by accident.
std::string containmentCanaryLines(const std::string& scratch, const std::string& ws);

// Writes the canary's files under `scratch` (the secret beside the
// workspace, the workspace's `prot` and `denied`) and returns the step that
// runs `script` there as a probe does: workspace writable, `prot` protected,
// `denied` unreadable, no network, a bare PATH.
StepSpec canaryStep(const std::filesystem::path& scratch, const std::string& script);

// What a canary's run showed: the tokens it printed when it exited 0, else
// why not (the launch error, or its stderr and exit status).
struct CanaryRun {
  bool ran = false;
  std::set<std::string> tokens;
  std::string launchError;
  std::string stderrText;
  int status = 0;
};
CanaryRun runCanary(Backend& backend, const StepSpec& spec, std::chrono::seconds timeout);

}  // namespace lw::sandbox
