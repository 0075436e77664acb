// What linux-bwrap enforces here, observed: one bwrap run with the
// production flags whose shell checks print a token per property that held.
// The interpretation of those tokens is pure and unit-tested; the run is in
// bwrap_backend.cpp. The escape suite (tests/escape) tests the same
// properties with hostile programs, so probe and suite must agree.
#pragma once

#include <set>
#include <string>

#include "sandbox/backend.h"
#include "sandbox/bwrap/userns_probe.h"

namespace lw::sandbox::bwrap {

struct ProbeObservation {
  bool bwrapFound = false;
  std::string version;    // "bubblewrap 0.8.0"
  bool ran = false;       // bwrap started the check script and it exited 0
  std::string failure;    // why it did not run (bwrap's own message)
  UsernsSysctls sysctls;  // read when it did not run: why a user namespace was refused
  bool seccompCompiled = false;
  std::string seccompError;
  std::set<std::string> tokens;  // printed by probeScript()
};

// The checks, for a workspace `ws` (writable, holding `prot` protected and
// `denied` denied) inside `scratch`, which also holds `secret`, outside the view.
std::string probeScript(const std::string& scratch, const std::string& ws);

// Pure: tokens -> per-capability and per-network-mode status. A launch
// refused for want of a user namespace is named with its cause and what an
// admin can do (userns_probe.h), e.g. on Ubuntu 24.04.
ProbeReport interpretProbe(const ProbeObservation& observation);

}  // namespace lw::sandbox::bwrap
