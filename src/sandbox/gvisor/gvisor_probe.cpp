#include "sandbox/gvisor/gvisor_probe.h"
#include "sandbox/probe_canary.h"

#include <array>
#include <utility>

#include "core/ascii.h"

namespace lw::sandbox::gvisor {
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

// The release the step saw ("U:4.4.0" printed by the script).
std::string insideRelease(const ProbeObservation& o) {
  for (const std::string& t : o.tokens)
    if (t.rfind("U:", 0) == 0) return t.substr(2);
  return "?";
}

std::string kernelSeparation(const ProbeObservation& o) {
  if (!has(o, {"K1", "K2", "K3"})) return {};
  return "the step saw kernel " + insideRelease(o) + " (the host runs " + o.hostRelease +
         "), another boot id, and not the host's loaded modules";
}

void setCapabilities(ProbeReport& r, const ProbeObservation& o, bool base, bool separated) {
  r.capabilities[Capability::FilesystemReadContainment] = enforcedIf(
      base && has(o, {"R1", "R2"}),
      "OCI bind mounts (linux-bwrap's view): only system dirs, the workspace and writable paths are visible; "
      "denied paths masked",
      "a path outside the view or a denied path was readable in the probe");
  r.capabilities[Capability::FilesystemWriteContainment] =
      enforcedIf(base && has(o, {"W1", "W2"}), "read-only root and binds; writable binds only for writable paths",
                 "the probe could write outside its writable paths, or not inside them");
  r.capabilities[Capability::ProtectedPathReadOnlyMask] = enforcedIf(
      base && has(o, {"P1", "P2"}), "read-only binds over writable binds, ancestors pinned (linux-bwrap's plan)",
      "a protected file was writable or renamable in the probe");
  r.capabilities[Capability::NetworkIsolation] =
      enforcedIf(base && has(o, {"N1"}), "gVisor's own network stack (--network=none): loopback only",
                 "the probe saw network interfaces besides loopback");
  r.capabilities[Capability::ProcessTreeCleanup] =
      enforcedIf(base && has(o, {"T1"}),
                 "gVisor's pid namespace; the sandbox dies with runsc, which dies with loopwright; runsc delete after",
                 "the probe was not in a fresh pid namespace");
  r.capabilities[Capability::SyscallFiltering] = enforcedIf(
      base && separated, "gVisor's kernel serves the step's system calls; the host sees only its own, seccomp-filtered",
      "the probe did not see the step on gVisor's kernel");
}

void setNetworkModes(ProbeReport& r, const ProbeObservation& o, bool base) {
  const bool netstack = base && has(o, {"N1"});
  const bool filtered = netstack && has(o, {"S1"});
  r.networkModes[NetworkMode::None] =
      filtered   ? SupportStatus{Support::Enforced,
                               "gVisor's network stack with loopback only; an OCI seccomp filter refuses every socket "
                                 "but a unix one"}
      : netstack ? SupportStatus{Support::Partial,
                                 "gVisor's network stack with loopback only, but the OCI seccomp filter was not seen: "
                                 "the step can open loopback sockets of its own"}
                 : SupportStatus{Support::Absent, "the probe saw network interfaces besides loopback"};
  r.networkModes[NetworkMode::LoopbackOnly] =
      enforcedIf(netstack, "gVisor's own network stack with loopback only (--network=none)",
                 "the probe saw network interfaces besides loopback");
  r.networkModes[NetworkMode::AllowOutbound] = {
      Support::Partial,
      "--network=host: the step's sockets are the host's network stack's, the host's loopback services reachable"};
  // The relay inside reaches the step's proxy through --host-uds=open, as
  // the bridge does; the step itself is refused new unix sockets.
  r.networkModes[NetworkMode::AllowList] =
      enforcedIf(netstack,
                 "gVisor's own network stack with loopback only (--network=none), whose one way out is the egress "
                 "relay on 127.0.0.1:3128, started before loopwright's filter refuses the step new unix sockets",
                 "the probe saw network interfaces besides loopback");
}

}  // namespace

std::string probeScript(const std::string& scratch, const std::string& ws) {
  // Beside the shared lines: K1-K3 (the kernel release, boot id and loaded
  // modules are not the host's) and U:, the release the step saw, for the report.
  return containmentCanaryLines(scratch, ws) + "test \"$(uname -r -v)\" != \"$(cat '" + ws + "/" + kHostUnameFile +
         "')\" && echo K1\n" + "cmp -s /proc/sys/kernel/random/boot_id '" + ws + "/" + kHostBootIdFile +
         "' || echo K2\n" + "cmp -s /proc/modules '" + ws + "/" + kHostModulesFile + "' || echo K3\n" +
         "echo \"U:$(uname -r)\"\n"
         "exit 0\n";
}

ProbeReport interpretProbe(const ProbeObservation& o) {
  ProbeReport r;
  r.backend = BackendId::LinuxGvisor;
  r.version = o.version;
  if (!o.runscFound) {
    r.unavailableReason = "gVisor (runsc) is not installed";
    markAllAbsent(r, r.unavailableReason);
    return r;
  }
  if (!o.ran) {
    r.unavailableReason =
        "runsc could not start a sandbox with the production flags: " + diagnoseRunscFailure(o.failure);
    markAllAbsent(r, r.unavailableReason);
    return r;
  }
  // Without an empty capability set inside nothing else holds.
  const bool base = has(o, {"C1"});
  r.available = base;
  if (!base) r.unavailableReason = "the step kept capabilities inside gVisor";
  if (base) r.kernelSeparation = kernelSeparation(o);
  setCapabilities(r, o, base, !r.kernelSeparation.empty());
  setNetworkModes(r, o, base);
  return r;
}

std::string diagnoseRunscFailure(const std::string& message) {
  static const std::array<std::pair<const char*, const char*>, 6> kCauses = {{
      {"cgroup", "runsc could not set up cgroups (run it as root, or on a host with cgroups it may write)"},
      {"seccomp", "runsc's own seccomp filter could not be installed (a seccomp profile of the runner forbids it)"},
      {"ptrace",
       "gVisor's ptrace platform was refused (a seccomp profile or kernel.yama.ptrace_scope=3 forbids ptrace)"},
      {"/dev/kvm", "gVisor's KVM platform has no /dev/kvm here (use --platform=ptrace)"},
      {"user namespace", "runsc could not create a user namespace (unprivileged user namespaces are restricted)"},
      {"operation not permitted", "runsc was refused a privileged operation (run it as root, or with --rootless)"},
  }};
  const std::string lower = asciiLowered(message);
  const std::string firstLine = message.substr(0, message.find('\n'));
  for (const auto& [needle, cause] : kCauses)
    if (lower.find(needle) != std::string::npos) return std::string(cause) + ": " + firstLine;
  return firstLine.empty() ? "no message" : firstLine;
}

}  // namespace lw::sandbox::gvisor
