// What linux-gvisor enforces here, observed: one runsc run with the
// production flags whose shell checks print a token per property that held,
// among them that the step runs on another kernel than the host's — the
// observation L3 rests on (ProbeReport::kernelSeparation). The
// interpretation is pure and unit-tested; the run is in gvisor_backend.cpp.
#pragma once

#include <set>
#include <string>

#include "sandbox/backend.h"

namespace lw::sandbox::gvisor {

// The host's side of the kernel comparison, written into the probe's
// workspace before the run (the step cannot see the host's /proc).
struct HostKernelFacts {
  std::string uname;    // "<release> <version>" of the host kernel
  std::string bootId;   // /proc/sys/kernel/random/boot_id
  std::string modules;  // /proc/modules
};

// The files, in the probe's workspace, that hold the host's facts.
inline constexpr const char* kHostUnameFile = "host-uname";
inline constexpr const char* kHostBootIdFile = "host-boot-id";
inline constexpr const char* kHostModulesFile = "host-modules";

struct ProbeObservation {
  bool runscFound = false;
  std::string version;           // "runsc version 0.0~20221219.0"
  bool ran = false;              // runsc started the check script and it exited 0
  std::string failure;           // why it did not run (runsc's own message)
  std::set<std::string> tokens;  // printed by probeScript()
  std::string hostRelease;       // the host's uname release, for the words
};

// The checks, for a workspace `ws` (writable, holding `prot` protected,
// `denied` denied and the host-kernel files above) inside `scratch`, which
// also holds `secret`, outside the view.
std::string probeScript(const std::string& scratch, const std::string& ws);

// Pure: tokens -> per-capability and per-network-mode status, and the
// kernel separation when all of its checks held.
ProbeReport interpretProbe(const ProbeObservation& observation);

// Pure: what runsc's own message (stderr, or its log) says about why a
// sandbox did not start — the platform (ptrace, KVM), its seccomp filter,
// cgroups, user namespaces — in words an admin can act on; the first line
// of the message when none of them is recognised.
std::string diagnoseRunscFailure(const std::string& message);

}  // namespace lw::sandbox::gvisor
