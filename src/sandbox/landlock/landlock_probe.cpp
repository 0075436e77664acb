#include "sandbox/landlock/landlock_probe.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox/landlock/landlock_abi.h"
#include "sandbox/landlock/namespaces.h"

namespace lw::sandbox::landlock {
namespace {

enum Bit : int { kNs = 1, kPidInit = 2, kSubreaper = 4, kLandlock = 8, kSeccomp = 16 };

bool pidNamespaceInitWorks() noexcept {
  pid_t c = fork();
  if (c < 0) return false;
  if (c == 0) _exit(getpid() == 1 ? 0 : 1);
  int st = 0;
  while (waitpid(c, &st, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

// Runs in the forked probe child; the exit code carries the Bits.
[[noreturn]] void probeChild(const PreparedNamespaces& ns, const seccomp::BpfProgram& filter,
                             int abi) noexcept {
  int bits = 0;
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0) {
    int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) bits |= kSubreaper, close(fd);
  }
  if (ns.enter() == 0) {
    bits |= kNs;
    if (pidNamespaceInitWorks()) bits |= kPidInit;
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(bits);
  if (abi >= 1) {
    RulesetAttr attr;
    attr.handledAccessFs = kFsReadFile | kFsReadDir;
    int rs = createRuleset(&attr, sizeof attr, 0);
    if (rs >= 0 && restrictSelf(rs, 0) == 0) {
      int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0 && errno == EACCES) bits |= kLandlock;
      if (fd >= 0) close(fd);
    }
  }
  if (filter.installOnCurrentThread() == 0 && syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0) < 0 &&
      errno == EPERM)
    bits |= kSeccomp;
  _exit(bits);
}

SupportStatus enforced(std::string why) { return {Support::Enforced, std::move(why)}; }
SupportStatus partial(std::string why) { return {Support::Partial, std::move(why)}; }
SupportStatus absent(std::string why) { return {Support::Absent, std::move(why)}; }

}  // namespace

Observation observeHost(const seccomp::BpfProgram& filter) {
  Observation o;
  o.abi = queryAbi();
  PreparedNamespaces ns(geteuid(), getegid(), PreparedNamespaces::Which{true, true});
  pid_t child = fork();
  if (child < 0) {
    o.failure = std::string("fork: ") + std::strerror(errno);
    return o;
  }
  if (child == 0) probeChild(ns, filter, o.abi);
  int st = 0;
  while (waitpid(child, &st, 0) < 0) {
    if (errno != EINTR) {
      o.failure = std::string("waitpid: ") + std::strerror(errno);
      return o;
    }
  }
  if (!WIFEXITED(st)) {
    o.failure = "the probe child was killed by signal " + std::to_string(WTERMSIG(st));
    return o;
  }
  int bits = WEXITSTATUS(st);
  o.namespaces = bits & kNs;
  o.pidNamespaceInit = bits & kPidInit;
  o.subreaper = bits & kSubreaper;
  o.landlockRestricts = bits & kLandlock;
  o.seccompFilters = bits & kSeccomp;
  return o;
}

ProbeReport classify(const Observation& o) {
  ProbeReport r;
  r.backend = BackendId::LinuxLandlock;
  r.version = "landlock ABI " + std::to_string(o.abi);
  const bool ns = o.namespaces && o.pidNamespaceInit;
  if (!o.failure.empty()) {
    r.unavailableReason = "probe failed: " + o.failure;
  } else if (o.abi < 1 || !o.landlockRestricts) {
    r.unavailableReason = "Landlock is not enabled in this kernel (or refused a ruleset)";
  } else if (o.abi < 3) {
    r.unavailableReason = "Landlock ABI " + std::to_string(o.abi) +
                          " cannot stop truncate(2); ABI 3 (Linux 6.2) is needed";
  } else if (!o.seccompFilters) {
    r.unavailableReason = "the seccomp filter could not be loaded";
  } else if (!o.subreaper) {
    r.unavailableReason = "no child subreaper or /proc/thread-self/children: the process tree "
                          "cannot be cleaned up";
  } else if (o.abi < 6 && !ns) {
    r.unavailableReason = "Landlock ABI " + std::to_string(o.abi) +
                          " cannot scope signals and no pid namespace can be created";
  }
  r.available = r.unavailableReason.empty();
  using C = Capability;
  if (!r.available) {
    for (C c : kAllCapabilities) r.capabilities[c] = absent(r.unavailableReason);
    for (NetworkMode m : kAllNetworkModes) r.networkModes[m] = absent(r.unavailableReason);
    return r;
  }
  const std::string abi = "Landlock ABI " + std::to_string(o.abi);
  r.capabilities[C::FilesystemReadContainment] =
      enforced(abi + ": reads only beneath the workspace, the out dir and system paths");
  r.capabilities[C::FilesystemWriteContainment] =
      enforced(abi + ": writes (truncate included) only beneath the writable paths");
  r.capabilities[C::ProtectedPathReadOnlyMask] =
      partial("Landlock only grants rights beneath a path and cannot take write back from a "
              "path inside a writable root; protected paths are read-only only while their "
              "tree is");
  r.capabilities[C::ProcessTreeCleanup] =
      enforced(o.abi < 6 ? "pid namespace per step, inside a subreaper supervisor"
                         : "subreaper supervisor kills every descendant, also when loopwright dies");
  r.capabilities[C::SyscallFiltering] = enforced("seccomp filter (libseccomp), other ABIs killed");
  r.networkModes[NetworkMode::None] =
      enforced("seccomp refuses every new socket (the bridge is passed as a descriptor)" +
               std::string(o.abi >= 4 ? "; Landlock refuses TCP bind/connect" : ""));
  r.networkModes[NetworkMode::LoopbackOnly] =
      ns ? enforced("private network namespace with only lo up; no new unix sockets")
         : partial("without a user namespace the host's loopback would be reachable");
  r.networkModes[NetworkMode::AllowOutbound] =
      partial("the host's loopback services would stay reachable: Landlock filters TCP by port, "
              "not by address, and not UDP");
  r.capabilities[C::NetworkIsolation] =
      enforced("for the network modes marked enforced (none" +
               std::string(ns ? ", loopback-only)" : ")"));
  return r;
}

}  // namespace lw::sandbox::landlock
