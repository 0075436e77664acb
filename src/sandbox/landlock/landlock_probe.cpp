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
#include "sandbox/landlock/private_view.h"

namespace lw::sandbox::landlock {
namespace {

enum Bit : int { kNs = 1, kPidInit = 2, kSubreaper = 4, kLandlock = 8, kSeccomp = 16, kView = 32 };

// Forks the pid namespace's init, which sets up the private view; its exit
// code carries kPidInit and kView.
int observeInit(const PreparedView& view) noexcept {
  pid_t c = fork();
  if (c < 0) return 0;
  if (c == 0) {
    if (getpid() != 1) _exit(0);
    _exit(kPidInit | (view.apply() == 0 ? kView : 0));
  }
  int st = 0;
  while (waitpid(c, &st, 0) < 0)
    if (errno != EINTR) return 0;
  return WIFEXITED(st) ? WEXITSTATUS(st) & (kPidInit | kView) : 0;
}

// Runs in the forked probe child; the exit code carries the Bits.
[[noreturn]] void probeChild(const PreparedNamespaces& ns, const PreparedView& view, const seccomp::BpfProgram& filter,
                             int abi) noexcept {
  int bits = 0;
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0) {
    int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) bits |= kSubreaper, close(fd);
  }
  if (ns.enter() == 0) bits |= kNs | observeInit(view);
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
  if (filter.installOnCurrentThread() == 0 && syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0) < 0 && errno == EPERM)
    bits |= kSeccomp;
  _exit(bits);
}

SupportStatus enforced(std::string why) { return {Support::Enforced, std::move(why)}; }
SupportStatus partial(std::string why) { return {Support::Partial, std::move(why)}; }
SupportStatus absent(std::string why) { return {Support::Absent, std::move(why)}; }

// Why the backend cannot run here, the first missing piece in the order the
// launcher needs them; empty when nothing is missing.
std::string unavailableBecause(const Observation& o) {
  const bool ns = o.namespaces && o.pidNamespaceInit;
  if (!o.failure.empty()) return "probe failed: " + o.failure;
  if (o.abi < 1 || !o.landlockRestricts) return "Landlock is not enabled in this kernel (or refused a ruleset)";
  if (o.abi < 3)
    return "Landlock ABI " + std::to_string(o.abi) + " cannot stop truncate(2); ABI 3 (Linux 6.2) is needed";
  if (!o.seccompFilters) return "the seccomp filter could not be loaded";
  if (!o.subreaper)
    return "no child subreaper or /proc/thread-self/children: the process tree "
           "cannot be cleaned up";
  if (o.abi < 6 && !ns)
    return "Landlock ABI " + std::to_string(o.abi) + " cannot scope signals and no pid namespace can be created";
  return "";
}

}  // namespace

Observation observeHost(const seccomp::BpfProgram& filter, bool userNamespace) {
  Observation o;
  o.abi = queryAbi();
  PreparedNamespaces ns(geteuid(), getegid(), {.user = userNamespace, .mount = true, .network = true, .pid = true});
  PreparedView view({}, "/");
  pid_t child = fork();
  if (child < 0) {
    o.failure = std::string("fork: ") + std::strerror(errno);
    return o;
  }
  if (child == 0) probeChild(ns, view, filter, o.abi);
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
  o.privateView = bits & kView;
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
  r.unavailableReason = unavailableBecause(o);
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
  const bool view = ns && o.privateView;
  r.capabilities[C::FilesystemWriteContainment] =
      enforced(abi + ": writes (truncate included) only beneath the writable paths; " +
               (view ? "everything else mounted read-only, so mode, owner, times and xattrs stay too"
                     : "seccomp refuses every chmod, chown, utime and xattr change (inside the "
                       "writable paths too: no private mount view here)"));
  r.capabilities[C::ProtectedPathReadOnlyMask] = partial(
      "Landlock only grants rights beneath a path and cannot take write back from a "
      "path inside a writable root; protected paths are read-only only while their "
      "tree is");
  r.capabilities[C::ProcessTreeCleanup] =
      view ? enforced(
                 "pid namespace per step with its own /proc, inside a subreaper supervisor: "
                 "no other process can be seen, signalled or limited")
           : partial(
                 "no pid namespace with its own /proc here (user namespaces unavailable): "
                 "the subreaper kills every descendant, but host processes are listed in "
                 "/proc with their command lines");
  r.capabilities[C::SyscallFiltering] = enforced("seccomp filter (libseccomp), other ABIs killed");
  r.networkModes[NetworkMode::None] =
      enforced("seccomp refuses every new socket (the bridge is passed as a descriptor)" +
               std::string(o.abi >= 4 ? "; Landlock refuses TCP bind/connect" : "") +
               "; the host's socket tables stay readable in /proc/net (no network namespace "
               "in this mode: it would cost ~0.5 ms per step)");
  r.networkModes[NetworkMode::LoopbackOnly] =
      ns ? enforced("private network namespace with only lo up; no new unix sockets")
         : partial("without a user namespace the host's loopback would be reachable");
  r.networkModes[NetworkMode::AllowOutbound] = partial(
      "the host's loopback services would stay reachable: Landlock filters TCP by port, "
      "not by address, and not UDP");
  r.networkModes[NetworkMode::AllowList] =
      ns ? enforced(
               "private network namespace with only lo up, whose one way out is a listener on "
               "127.0.0.1:3128 that loopwright holds and relays to the step's egress proxy; no new "
               "unix sockets, netlink, packet or raw sockets")
         : partial("without a user namespace the host's network would be reachable");
  r.capabilities[C::NetworkIsolation] =
      enforced("for the network modes marked enforced (none" + std::string(ns ? ", loopback-only, allow-list)" : ")"));
  return r;
}

}  // namespace lw::sandbox::landlock
