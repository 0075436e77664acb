#include <doctest/doctest.h>
#include <linux/fs.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <csignal>

#include <cerrno>
#include <map>
#include <set>

#include "sandbox/seccomp/seccomp_policy.h"

using namespace lw::sandbox::seccomp;
using lw::NetworkMode;
using Args = std::array<std::uint64_t, 6>;

namespace {
Verdict check(const Policy& p, const char* name, Args a = {}) { return evaluate(p, name, a); }
}  // namespace

TEST_CASE("seccomp policy: always-denied calls fail with EPERM in every network mode") {
  for (NetworkMode mode : lw::kAllNetworkModes) {
    CAPTURE(mode);
    Policy p = buildPolicy({mode, false});
    for (const char* s : {"ptrace",      "process_vm_readv",  "process_vm_writev", "mount",       "umount2",
                          "fsopen",      "move_mount",        "open_tree",         "unshare",     "setns",
                          "keyctl",      "add_key",           "request_key",       "bpf",         "perf_event_open",
                          "userfaultfd", "open_by_handle_at", "kexec_load",        "init_module", "finit_module"}) {
      CAPTURE(s);
      Verdict v = check(p, s);
      CHECK(v.denied);
      CHECK(v.errnoValue == EPERM);
    }
    CHECK(check(p, "io_uring_setup").errnoValue == ENOSYS);
    CHECK(check(p, "clone3").errnoValue == ENOSYS);
    CHECK_FALSE(check(p, "read").denied);
    CHECK_FALSE(check(p, "execve").denied);
    CHECK_FALSE(check(p, "socketpair", {AF_UNIX, SOCK_STREAM}).denied);
  }
}

TEST_CASE("seccomp policy: TIOCSTI and TIOCLINUX compared on the low 32 bits only") {
  Policy p = buildPolicy({NetworkMode::AllowOutbound, false});
  SUBCASE("plain") { CHECK(check(p, "ioctl", {0, TIOCSTI}).denied); }
  SUBCASE("high bits set") { CHECK(check(p, "ioctl", {0, TIOCSTI | (1ull << 32)}).denied); }
  SUBCASE("all high bits") { CHECK(check(p, "ioctl", {0, 0xFFFFFFFF00000000ull | TIOCSTI}).denied); }
  SUBCASE("TIOCLINUX high bits") { CHECK(check(p, "ioctl", {0, TIOCLINUX | (7ull << 40)}).denied); }
  SUBCASE("other ioctls pass") {
    CHECK_FALSE(check(p, "ioctl", {0, TCGETS}).denied);
    CHECK_FALSE(check(p, "ioctl", {0, FIONREAD}).denied);
    CHECK_FALSE(check(p, "ioctl", {TIOCSTI, 0}).denied);  // cmd is arg 1, not the fd
  }
}

TEST_CASE("seccomp policy: clone refused with any namespace flag, allowed without") {
  Policy p = buildPolicy({NetworkMode::None, false});
  CHECK_FALSE(check(p, "clone", {SIGCHLD}).denied);
  CHECK_FALSE(check(p, "clone", {CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD}).denied);
  for (std::uint64_t f :
       {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWCGROUP}) {
    CAPTURE(f);
    CHECK(check(p, "clone", {f | SIGCHLD}).errnoValue == EPERM);
  }
}

TEST_CASE("seccomp policy: socket families per network mode") {
  struct Case {
    NetworkMode mode;
    bool denyUnix;
    std::uint64_t family, type;
    int expect;  // 0 = allowed
  };
  const Case cases[] = {
      {NetworkMode::None, false, AF_UNIX, SOCK_STREAM, 0},
      {NetworkMode::None, false, AF_UNIX | (1ull << 32), SOCK_STREAM, EAFNOSUPPORT},
      {NetworkMode::None, false, AF_INET, SOCK_STREAM, EAFNOSUPPORT},
      {NetworkMode::None, false, AF_INET6, SOCK_DGRAM, EAFNOSUPPORT},
      {NetworkMode::None, false, AF_NETLINK, SOCK_RAW, EAFNOSUPPORT},
      {NetworkMode::None, true, AF_UNIX, SOCK_STREAM, EAFNOSUPPORT},
      {NetworkMode::LoopbackOnly, false, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0},
      {NetworkMode::LoopbackOnly, false, AF_INET6, SOCK_DGRAM, 0},
      {NetworkMode::LoopbackOnly, false, AF_UNIX, SOCK_DGRAM, 0},
      {NetworkMode::LoopbackOnly, true, AF_UNIX, SOCK_DGRAM, EAFNOSUPPORT},
      {NetworkMode::LoopbackOnly, false, AF_NETLINK, SOCK_DGRAM, EAFNOSUPPORT},
      {NetworkMode::LoopbackOnly, false, AF_PACKET, SOCK_RAW, EAFNOSUPPORT},
      {NetworkMode::LoopbackOnly, false, 0, SOCK_STREAM, EAFNOSUPPORT},
      {NetworkMode::AllowOutbound, false, AF_INET, SOCK_RAW, EPERM},
      {NetworkMode::AllowOutbound, false, AF_INET, SOCK_RAW | SOCK_NONBLOCK, EPERM},
      {NetworkMode::AllowOutbound, false, AF_INET6, SOCK_RAW | SOCK_CLOEXEC, EPERM},
      {NetworkMode::AllowOutbound, false, AF_INET, SOCK_PACKET, EPERM},
      {NetworkMode::AllowOutbound, false, AF_INET | (1ull << 33), SOCK_STREAM, EAFNOSUPPORT},
      {NetworkMode::AllowOutbound, false, AF_INET, SOCK_DGRAM, 0},
      {NetworkMode::AllowOutbound, false, AF_VSOCK, SOCK_STREAM, EAFNOSUPPORT},
      {NetworkMode::AllowOutbound, false, AF_BLUETOOTH, SOCK_STREAM, EAFNOSUPPORT},
  };
  for (const Case& c : cases) {
    CAPTURE(c.mode);
    CAPTURE(c.family);
    CAPTURE(c.type);
    Verdict v = check(buildPolicy({c.mode, c.denyUnix}), "socket", {c.family, c.type});
    CHECK(v.denied == (c.expect != 0));
    CHECK(v.errnoValue == c.expect);
  }
}

TEST_CASE("seccomp policy: rules of one syscall are disjoint, so kernel order never matters") {
  // Probe every rule's own matching arguments against the other rules of the
  // same syscall: two matching rules with different errnos would make the
  // filter's answer depend on libseccomp's layout.
  for (NetworkMode mode : lw::kAllNetworkModes) {
    for (bool denyUnix : {false, true}) {
      Policy p = buildPolicy({mode, denyUnix});
      for (const Rule& r : p.rules) {
        Args a{};
        for (const ArgCondition& c : r.when) a[c.arg] = c.value;
        for (const Rule& other : p.rules) {
          if (&other == &r || other.syscall != r.syscall) continue;
          bool all = true;
          for (const ArgCondition& c : other.when) all = all && c.holds(a[c.arg]);
          if (all) CHECK_MESSAGE(other.errnoValue == r.errnoValue, r.syscall, " overlaps");
        }
      }
    }
  }
}

TEST_CASE("seccomp policy: at most one comparison per argument in a rule (libseccomp limit)") {
  for (NetworkMode mode : lw::kAllNetworkModes) {
    for (const Rule& r : buildPolicy({mode, true}).rules) {
      std::set<unsigned> seen;
      for (const ArgCondition& c : r.when) CHECK(seen.insert(c.arg).second);
      CHECK_FALSE(r.why.empty());
    }
  }
}

TEST_CASE("seccomp policy: prlimit64 only on the caller (pid 0), in every network mode") {
  for (NetworkMode mode : lw::kAllNetworkModes) {
    CAPTURE(mode);
    Policy p = buildPolicy({mode, false});
    CHECK_FALSE(check(p, "prlimit64", {0, 7}).denied);  // setrlimit/getrlimit of oneself
    CHECK(check(p, "prlimit64", {1, 7}).errnoValue == EPERM);
    CHECK(check(p, "prlimit64", {4242, 0}).denied);
    CHECK(check(p, "prlimit64", {1ull << 32, 0}).denied);  // pid 0 with junk above
    CHECK_FALSE(check(p, "setrlimit", {7}).denied);
  }
}

TEST_CASE("seccomp policy: metadata changes refused only where asked, with calls newer than libseccomp by number") {
  const char* calls[] = {"chmod",      "fchmod",        "fchmodat",    "fchmodat2",   "chown",        "fchown",
                         "lchown",     "fchownat",      "utime",       "utimes",      "futimesat",    "utimensat",
                         "setxattr",   "lsetxattr",     "fsetxattr",   "removexattr", "lremovexattr", "fremovexattr",
                         "setxattrat", "removexattrat", "file_setattr"};
  Policy plain = buildPolicy({NetworkMode::None, true});
  Options o{NetworkMode::None, true};
  o.denyMetadataChanges = true;
  Policy strict = buildPolicy(o);
  for (const char* s : calls) {
    CAPTURE(s);
    CHECK_FALSE(check(plain, s).denied);
    CHECK(check(strict, s).errnoValue == EPERM);
  }
  for (std::uint64_t chattr :
       {std::uint64_t{FS_IOC_SETFLAGS}, std::uint64_t{FS_IOC32_SETFLAGS}, std::uint64_t{FS_IOC_FSSETXATTR}}) {
    CHECK(check(strict, "ioctl", {3, chattr | (1ull << 40)}).denied);
    CHECK_FALSE(check(plain, "ioctl", {3, chattr}).denied);
  }
  CHECK_FALSE(check(strict, "ioctl", {3, FS_IOC_GETFLAGS}).denied);
  CHECK_FALSE(check(strict, "fstat").denied);
  auto numbered = [&](const char* name) {
    for (const Rule& r : strict.rules)
      if (r.syscall == name) return r.number;
    return -1;
  };
  CHECK(numbered("fchmodat2") == 452);
  CHECK(numbered("setxattrat") == 463);
  CHECK(numbered("removexattrat") == 466);
  CHECK(numbered("file_setattr") == 469);
  CHECK(numbered("chmod") == 0);
}
