#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "escape/escape_common.h"
#include "support/host_requirement.h"

using namespace lw::escape;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// A host process for the step to attack: `sleep 60` with a secret in its environment.
struct Victim {
  pid_t pid = -1;
  std::string secret = "lw-s3cr3t-" + std::to_string(::getpid());
  Victim() {
    pid = ::fork();
    if (pid == 0) {
      std::string env = "LW_SECRET=" + secret;
      char* envp[] = {env.data(), nullptr};
      ::execle("/bin/sleep", "sleep", "60", nullptr, envp);
      ::_exit(127);
    }
  }
  bool alive() const { return ::waitpid(pid, nullptr, WNOHANG) == 0; }
  ~Victim() {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
};

// A host process of the runner's own user, with a secret on its command line.
struct SameUserVictim {
  pid_t pid = -1;
  std::string secret = "lw-argv-s3cr3t-" + std::to_string(::getpid());
  explicit SameUserVictim(const Runner& r) {
    pid = ::fork();
    if (pid == 0) {
      if (r.uid && (::setgid(r.gid) != 0 || ::setuid(*r.uid) != 0)) ::_exit(99);
      // `; :` keeps the shell from exec'ing sleep in its place.
      ::execl("/bin/sh", "sh", "-c", "sleep 60; :", secret.c_str(), nullptr);
      ::_exit(127);
    }
    std::this_thread::sleep_for(50ms);
  }
  std::string limits() const {
    std::ifstream in("/proc/" + std::to_string(pid) + "/limits");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  bool alive() const { return ::waitpid(pid, nullptr, WNOHANG) == 0; }
  ~SameUserVictim() {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
};

}  // namespace

TEST_CASE("escape: TIOCSTI, also with the high bits of the request set") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    checkBlocked(sandboxExec(r, *c, {"tiocsti"}));
  }
}

TEST_CASE("escape: ptrace and signal a host process, read another process's environ") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    Victim v;
    checkBlocked(sandboxExec(r, *c, {"host-process", std::to_string(v.pid)}));
    CHECK(v.alive());
    checkBlocked(sandboxExec(r, *c, {"environ", v.secret, std::to_string(v.pid)}));
  }
}

TEST_CASE("escape: mount, remount and a nested user namespace") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    checkBlocked(sandboxExec(r, *c, {"mount", c->ws.string()}));
    checkBlocked(sandboxExec(r, *c, {"userns"}));
  }
}

TEST_CASE("escape: a setsid double-forked daemon is gone when sandbox exec returns") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    fs::path beat = c->writable / "beat";
    ExecResult res = sandboxExec(r, *c, {"daemon", beat.string()});
    INFO(res.describe());
    CHECK(res.status == 0);
    CHECK(sizeOf(beat) > 0);
    CHECK(stopsGrowing(beat, 1s));
  }
}

TEST_CASE("escape: the daemon is gone also when sandbox exec itself is SIGKILLed") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    fs::path beat = c->writable / "beat";
    ExecOptions o;
    o.background = true;
    pid_t pid = -1;
    sandboxExec(r, *c, {"daemon", beat.string(), "wait"}, o, &pid);
    auto until = std::chrono::steady_clock::now() + 20s;
    while (sizeOf(beat) == 0 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(20ms);
    REQUIRE(sizeOf(beat) > 0);
    ::kill(pid, SIGKILL);
    ExecResult res = finish(pid, *c);
    CHECK(res.status == 128 + SIGKILL);
    CHECK(stopsGrowing(beat, 3s));
  }
}

TEST_CASE("escape: the limits of a same-user host process and of the step's own supervisor stay") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    SameUserVictim v(r);
    std::string limits = v.limits();
    REQUIRE(limits.find("Max open files") != std::string::npos);
    checkBlocked(sandboxExec(r, *c, {"prlimit", std::to_string(v.pid), "ppid"}));
    CHECK(v.limits() == limits);
    CHECK(v.alive());
  }
}

TEST_CASE(
    "escape: after lowering its supervisor's limits, the step's daemon is still gone and the timeout still fires") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    fs::path beat = c->writable / "beat";
    ExecOptions o;
    o.flags = {"--timeout", "2"};
    auto started = std::chrono::steady_clock::now();
    ExecResult res = sandboxExec(r, *c, {"limit-supervisor-then-daemon", beat.string()}, o);
    INFO(res.describe());
    CHECK(res.status == 124);
    CHECK(std::chrono::steady_clock::now() - started < 20s);
    CHECK(stopsGrowing(beat, 3s));
  }
}

TEST_CASE("escape: host processes are not listed in /proc and their command lines not readable") {
  for (const Runner& r : runners()) {
    CAPTURE(r.label());
    auto c = makeCase(r);
    SameUserVictim v(r);
    ExecOptions o;
    // A backend that cannot hide host processes says so (processTreeCleanup
    // partial) and is refused when the policy requires it.
    o.flags = {"--require", "processTreeCleanup"};
    std::string reversed(v.secret.rbegin(), v.secret.rend());
    checkBlockedOrRefused(r, sandboxExec(r, *c, {"proc-view", std::to_string(v.pid), reversed}, o),
                          lw::Capability::ProcessTreeCleanup);
  }
}

namespace {

std::string hostFile(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE(
    "escape: an L3 step reaches no host-kernel interface: release, boot id, modules, io_uring, perf, userfaultfd") {
  struct utsname u {};
  ::uname(&u);
  std::string bootId = hostFile("/proc/sys/kernel/random/boot_id");
  bootId.erase(bootId.find_last_not_of('\n') + 1);
  int l3 = 0;
  for (const Runner& r : runners()) {
    if (!probeGivesL3(r)) continue;
    ++l3;
    CAPTURE(r.label());
    auto c = makeCase(r);
    ExecResult result = sandboxExec(r, *c, {"host-kernel", u.release, bootId, hostFile("/proc/modules")});
    checkBlocked(result);
    CHECK(result.out.find("host kernel: the step runs on kernel 4.4.0") != std::string::npos);
  }
  LW_REQUIRE_HOST(l3 > 0, "no backend gives L3 here (install runsc: linux-gvisor)");
}
