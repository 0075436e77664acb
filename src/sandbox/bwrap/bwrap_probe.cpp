#include "sandbox/bwrap/bwrap_probe.h"
#include "sandbox/probe_canary.h"

namespace lw::sandbox::bwrap {
namespace {

bool has(const ProbeObservation& o, std::initializer_list<const char*> tokens) {
  for (const char* t : tokens) {
    if (o.tokens.count(t) == 0) return false;
  }
  return true;
}

SupportStatus enforcedIf(bool ok, std::string how, std::string whyNot) {
  return ok ? SupportStatus{Support::Enforced, std::move(how)} : SupportStatus{Support::Absent, std::move(whyNot)};
}

// What each capability's tokens say, given the base (no capabilities, no
// new privileges) held.
void markCapabilities(const ProbeObservation& o, bool base, ProbeReport& r) {
  r.capabilities[Capability::FilesystemReadContainment] =
      enforcedIf(base && has(o, {"R1", "R2"}),
                 "mount namespace: only system dirs, the workspace and writable paths are visible; "
                 "denied paths masked",
                 "a path outside the view or a denied path was readable in the probe");
  r.capabilities[Capability::FilesystemWriteContainment] =
      enforcedIf(base && has(o, {"W1", "W2"}), "mount namespace: writable binds only for writable paths",
                 "the probe could write outside its writable paths, or not inside them");
  r.capabilities[Capability::ProtectedPathReadOnlyMask] = enforcedIf(
      base && has(o, {"P1", "P2"}), "read-only re-binds after writable binds; ancestors pinned as mount points",
      "a protected file was writable or renamable in the probe");
  r.capabilities[Capability::NetworkIsolation] = enforcedIf(base && has(o, {"N1"}), "network namespace (--unshare-net)",
                                                            "the probe saw network interfaces besides loopback");
  r.capabilities[Capability::ProcessTreeCleanup] =
      enforcedIf(base && has(o, {"T1"}), "pid namespace, --die-with-parent, and a subreaper supervisor",
                 "the probe was not in a fresh pid namespace");
  r.capabilities[Capability::SyscallFiltering] =
      !o.seccompCompiled ? SupportStatus{Support::Absent, "the seccomp filter could not be built: " + o.seccompError}
                         : enforcedIf(base && has(o, {"S1"}), "seccomp filter passed with --seccomp",
                                      "the probe ran without a seccomp filter");
}

// The network modes follow from the private namespace (N1, N2) and the filter (S1).
void markNetworkModes(const ProbeObservation& o, bool base, ProbeReport& r) {
  bool netns = base && has(o, {"N1"});
  bool filtered = base && o.seccompCompiled && has(o, {"S1"});
  if (netns && filtered) {
    r.networkModes[NetworkMode::None] = {Support::Enforced,
                                         "private network namespace; seccomp refuses every new socket"};
  } else if (netns) {
    r.networkModes[NetworkMode::None] = {
        Support::Partial,
        "private network namespace, but without seccomp the step can open loopback sockets "
        "of its own"};
  } else {
    r.networkModes[NetworkMode::None] = {Support::Absent, "no private network namespace"};
  }
  r.networkModes[NetworkMode::LoopbackOnly] = enforcedIf(
      netns && has(o, {"N2"}), "private network namespace with its own loopback up; new unix sockets refused",
      netns ? "loopback was not up in the private network namespace" : "no private network namespace");
  r.networkModes[NetworkMode::AllowOutbound] = {
      Support::Partial,
      "--share-net shares the host's network namespace: the host's loopback services stay "
      "reachable"};
  r.networkModes[NetworkMode::AllowList] =
      enforcedIf(netns && filtered,
                 "private network namespace whose only way out is the egress relay to loopwright's proxy, "
                 "which checks every connection against the step's egress list",
                 netns ? "the probe ran without a seccomp filter" : "no private network namespace");
}

}  // namespace

std::string probeScript(const std::string& scratch, const std::string& ws) {
  // Beside the shared lines: N2 (the namespace's own loopback is up) and C2
  // (no new privileges).
  return containmentCanaryLines(scratch, ws) +
         "grep -q 127.0.0.1 /proc/net/fib_trie 2>/dev/null && echo N2\n"
         "grep -q '^NoNewPrivs:.1' /proc/self/status && echo C2\n"
         "exit 0\n";
}

ProbeReport interpretProbe(const ProbeObservation& o) {
  ProbeReport r;
  r.backend = BackendId::LinuxBwrap;
  r.version = o.version;
  if (!o.bwrapFound) {
    r.unavailableReason = "bubblewrap (bwrap) is not installed";
    markAllAbsent(r, r.unavailableReason);
    return r;
  }
  if (!o.ran) {
    r.unavailableReason = "bwrap could not start a sandbox with the production flags: " + o.failure;
    if (UsernsDiagnosis d = diagnoseUserns(o.failure, o.sysctls); d.blocked)
      r.unavailableReason += ": " + d.cause + "; to fix: " + d.hint;
    markAllAbsent(r, r.unavailableReason);
    return r;
  }
  // Without no-new-privileges and an empty capability set nothing else holds.
  bool base = has(o, {"C1", "C2"});
  std::string baseWhy = "the step kept capabilities or lacked no-new-privileges";
  r.available = base;
  if (!base) r.unavailableReason = baseWhy;

  markCapabilities(o, base, r);
  markNetworkModes(o, base, r);
  return r;
}

}  // namespace lw::sandbox::bwrap
