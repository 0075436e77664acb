// The shell lines a backend's probe runs inside its sandbox to see the
// containment properties every Linux backend shares, each printing a token
// only when the property held.
#pragma once

#include <string>

namespace lw::sandbox {

// Tokens: W1 (the workspace is writable), W2 (/usr is not), P1 and P2 (a
// protected path can be neither written nor moved), R1 (a host path outside
// the view is absent), R2 (a denied path is unreadable), N1 (loopback is the
// only interface), T1 (a pid namespace), S1 (a seccomp filter), C1 (no
// effective capabilities). `scratch` holds the host's secret, `ws` is the
// workspace with its `prot` and `denied` files. Nothing else is printed, so
// a token never appears by accident.
std::string containmentCanaryLines(const std::string& scratch, const std::string& ws);

}  // namespace lw::sandbox
