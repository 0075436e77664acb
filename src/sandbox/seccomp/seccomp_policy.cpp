#include "sandbox/seccomp/seccomp_policy.h"

#include <linux/fs.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <cerrno>

namespace lw::sandbox::seccomp {
namespace {

using Op = ArgCondition::Op;

// The kernel reads ioctl's cmd and socket's family/type as 32-bit ints and
// ignores the upper half of the register; comparing all 64 bits would let
// `ioctl(fd, TIOCSTI | (1UL << 32))` through (CVE-2017-5226 class).
constexpr std::uint64_t kLow32 = 0xFFFFFFFFull;
constexpr std::uint64_t kSockTypeMask = 0xF;  // SOCK_TYPE_MASK: flags live above

Rule deny(std::string syscall, std::string why, int err = EPERM, std::vector<ArgCondition> when = {}) {
  return Rule{std::move(syscall), 0, err, std::move(when), std::move(why)};
}

// A call newer than libseccomp 2.5 (Debian 12) knows by name.
Rule denyNumbered(std::string syscall, int number, std::string why) {
  Rule r = deny(std::move(syscall), std::move(why));
  r.number = number;
  return r;
}

void addAlwaysDenied(std::vector<Rule>& r) {
  for (const char* s : {"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "process_madvise", "kcmp"})
    r.push_back(deny(s, "inspecting or changing another process"));
  for (const char* s : {"mount", "umount2", "pivot_root", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount",
                        "fspick", "mount_setattr"})
    r.push_back(deny(s, "the mount API"));
  for (const char* s : {"unshare", "setns"}) r.push_back(deny(s, "entering or creating namespaces"));
  // clone3 passes its flags in memory a filter cannot read; ENOSYS makes
  // glibc fall back to clone(), whose flags are checked below.
  r.push_back(deny("clone3", "namespace flags unreadable by seccomp", ENOSYS));
  for (std::uint64_t flag :
       {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWCGROUP})
    r.push_back(deny("clone", "creating namespaces", EPERM, {{0, Op::MaskedEq, flag, flag}}));
  for (const char* s : {"keyctl", "add_key", "request_key"})
    r.push_back(deny(s, "kernel keyrings are shared outside the sandbox"));
  r.push_back(deny("bpf", "eBPF"));
  r.push_back(deny("perf_event_open", "performance counters"));
  r.push_back(deny("userfaultfd", "userfaultfd widens kernel race windows"));
  r.push_back(deny("open_by_handle_at", "opens files by handle, bypassing path checks"));
  for (const char* s : {"kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module"})
    r.push_back(deny(s, "kernel loading"));
  for (const char* s : {"io_uring_setup", "io_uring_enter", "io_uring_register"})
    r.push_back(deny(s, "io_uring bypasses seccomp for the operations it submits", ENOSYS));
  r.push_back(deny("ioctl", "TIOCSTI injects input into the terminal", EPERM, {{1, Op::MaskedEq, TIOCSTI, kLow32}}));
  r.push_back(
      deny("ioctl", "TIOCLINUX reads and injects on the console", EPERM, {{1, Op::MaskedEq, TIOCLINUX, kLow32}}));
  // pid 0 is the caller: a lower RLIMIT_NOFILE or RLIMIT_CPU on another
  // process of the same user (the step's own supervisor) breaks or kills it.
  r.push_back(deny("prlimit64", "the resource limits of another process", EPERM, {{0, Op::Ne, 0, 0}}));
}

void addMetadataRules(std::vector<Rule>& r) {
  const char* why = "changing metadata: Landlock does not govern it";
  for (const char* s :
       {"chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "utime", "utimes", "futimesat",
        "utimensat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr"})
    r.push_back(deny(s, why));
  r.push_back(denyNumbered("fchmodat2", 452, why));
  r.push_back(denyNumbered("setxattrat", 463, why));
  r.push_back(denyNumbered("removexattrat", 466, why));
  r.push_back(denyNumbered("file_setattr", 469, why));
  // chattr: append-only, no-dump, no-atime … are the owner's to set.
  for (std::uint64_t request :
       {std::uint64_t{FS_IOC_SETFLAGS}, std::uint64_t{FS_IOC32_SETFLAGS}, std::uint64_t{FS_IOC_FSSETXATTR}})
    r.push_back(deny("ioctl", "changing inode flags: Landlock does not govern it", EPERM,
                     {{1, Op::MaskedEq, request, kLow32}}));
}

void addSocketRules(std::vector<Rule>& r, const Options& o) {
  const char* why = "socket family not allowed for this network mode";
  if (o.network == NetworkMode::None) {
    if (o.denyNewUnixSockets) {
      r.push_back(deny("socket", "no new sockets in network mode none", EAFNOSUPPORT));
    } else {
      // Ne on all 64 bits: AF_UNIX with junk in the upper half is refused too.
      r.push_back(deny("socket", why, EAFNOSUPPORT, {{0, Op::Ne, AF_UNIX, 0}}));
    }
    return;
  }
  // Families other than unix/inet/inet6 (netlink, packet, …), as disjoint
  // ranges because one rule may compare an argument only once.
  r.push_back(deny("socket", why, EAFNOSUPPORT, {{0, Op::Eq, 0, 0}}));
  if (o.denyNewUnixSockets)
    r.push_back(deny("socket", "new unix sockets could reach the host's", EAFNOSUPPORT, {{0, Op::Eq, AF_UNIX, 0}}));
  for (std::uint64_t f = AF_INET + 1; f < AF_INET6; ++f)
    r.push_back(deny("socket", why, EAFNOSUPPORT, {{0, Op::Eq, f, 0}}));
  r.push_back(deny("socket", why, EAFNOSUPPORT, {{0, Op::Ge, AF_INET6 + 1, 0}}));
  for (std::uint64_t family : {AF_INET, AF_INET6})
    for (std::uint64_t type : {SOCK_RAW, SOCK_PACKET})
      r.push_back(
          deny("socket", "raw sockets", EPERM, {{0, Op::Eq, family, 0}, {1, Op::MaskedEq, type, kSockTypeMask}}));
}

}  // namespace

bool ArgCondition::holds(std::uint64_t v) const {
  switch (op) {
    case Op::Eq: return v == value;
    case Op::Ne: return v != value;
    case Op::Ge: return v >= value;
    case Op::MaskedEq: return (v & mask) == value;
  }
  return false;
}

Policy buildPolicy(const Options& options) {
  Policy p;
  addAlwaysDenied(p.rules);
  addSocketRules(p.rules, options);
  if (options.denyMetadataChanges) addMetadataRules(p.rules);
  return p;
}

Verdict evaluate(const Policy& policy, std::string_view syscall, const std::array<std::uint64_t, 6>& args) {
  for (const Rule& rule : policy.rules) {
    if (rule.syscall != syscall) continue;
    bool all = true;
    for (const ArgCondition& c : rule.when) all = all && c.arg < 6 && c.holds(args[c.arg]);
    if (all) return Verdict{true, rule.errnoValue, &rule};
  }
  return Verdict{};
}

}  // namespace lw::sandbox::seccomp
