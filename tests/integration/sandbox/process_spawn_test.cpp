#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "integration/sandbox/spawn_cases.h"
#include "sandbox/process/child_setups.h"
#include "sandbox/process/spawn.h"

using namespace lw::sandbox::process;
using namespace std::chrono_literals;

namespace {

const auto& kEnv = lw::test::kSpawnEnv;
using lw::test::alive;
using lw::test::shell;

ExitInfo runToEnd(const SpawnRequest& r, std::string* out = nullptr) {
  return lw::test::runToEnd([](const SpawnRequest& q) { return spawn(q); }, r, out);
}

}  // namespace

TEST_CASE("process spawn: no-new-privileges (session, dispositions and mask: spawn_contract_test)") {
  std::string out;
  SpawnRequest status;
  status.argv = {"grep", "NoNewPrivs", "/proc/self/status"};
  status.env = kEnv;
  runToEnd(status, &out);
  CHECK(out == "NoNewPrivs:\t1\n");
}

TEST_CASE("process spawn: a failing child setup names itself and its errno") {
  SpawnRequest r = shell("exit 0");
  r.childSetup.push_back({"first", [] { return 0; }});
  r.childSetup.push_back({"landlock_restrict_self", [] { return EPERM; }});
  auto p = spawn(r);
  REQUIRE(!p.ok());
  CHECK(p.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(p.error().message == "landlock_restrict_self failed: Operation not permitted");
}

TEST_CASE("process spawn: the deadline kills the tree and reports a timeout") {
  auto start = std::chrono::steady_clock::now();
  auto p = spawn(shell("sleep 30 & exec sleep 30"));
  REQUIRE(p.ok());
  ExitInfo info = (*p)->wait(start + 300ms);
  CHECK(info.timedOut);
  CHECK(info.status() == 124);
  CHECK(info.descendantsKilled == 1);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
}

TEST_CASE("process spawn: a setsid double-forked daemon is gone when wait returns") {
  std::string out;
  ExitInfo info = runToEnd(shell("setsid sh -c 'sleep 30 & echo $!'; exit 3"), &out);
  CHECK(info.exitCode == 3);
  CHECK(info.descendantsKilled == 1);
  pid_t daemon = std::stoi(out);
  CHECK(!alive(daemon));
}

TEST_CASE("process spawn: kill ends the tree, and parallel steps do not touch each other") {
  auto a = spawn(shell("sleep 30"));
  auto b = spawn(shell("sleep 0.3; echo b"));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  (*a)->kill();
  ExitInfo ai = (*a)->wait(std::nullopt);
  CHECK(ai.signal == SIGKILL);
  ExitInfo bi = (*b)->wait(std::chrono::steady_clock::now() + 10s);
  CHECK(bi.exitCode == 0);
  CHECK((*b)->stdoutData().data == "b\n");
}

TEST_CASE("process spawn: the tree dies when the orchestrator is SIGKILLed") {
  int pipeFds[2];
  REQUIRE(::pipe(pipeFds) == 0);
  pid_t orchestrator = ::fork();
  REQUIRE(orchestrator >= 0);
  if (orchestrator == 0) {
    ::close(pipeFds[0]);
    SpawnRequest r = shell("setsid sh -c 'sleep 30 & echo $!' ; sleep 30");
    r.onOutput = [&](int, const char* d, std::size_t n) { (void)!::write(pipeFds[1], d, n); };
    auto p = spawn(r);
    if (!p.ok()) ::_exit(1);
    (*p)->wait(std::nullopt);
    ::_exit(0);
  }
  ::close(pipeFds[1]);
  char buf[32] = {};
  ssize_t n = ::read(pipeFds[0], buf, sizeof buf - 1);
  REQUIRE(n > 0);
  pid_t daemon = std::atoi(buf);
  REQUIRE(alive(daemon));
  ::kill(orchestrator, SIGKILL);
  ::waitpid(orchestrator, nullptr, 0);
  auto until = std::chrono::steady_clock::now() + 5s;
  while (alive(daemon) && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(10ms);
  CHECK(!alive(daemon));
  ::close(pipeFds[0]);
}

TEST_CASE("process spawn: dropAllCapabilities leaves no capability, also as root") {
  std::string out;
  SpawnRequest r = shell("grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/$$/status | cut -f2 | sort -u");
  r.childSetup.push_back(dropAllCapabilities());
  runToEnd(r, &out);
  CHECK(out == "0000000000000000\n");
}

TEST_CASE("process spawn: a step that SIGKILLs its supervisor: its daemon is swept and the end says so") {
  auto start = std::chrono::steady_clock::now();
  auto p = spawn(shell("setsid sh -c 'sleep 30 & echo $!'; kill -9 $PPID; sleep 30"));
  REQUIRE(p.ok());
  ExitInfo info = (*p)->wait(start + 20s);
  INFO((*p)->stderrData().data);
  CHECK_FALSE(info.timedOut);
  CHECK(info.signal == SIGKILL);
  CHECK(info.supervisorLost.find("the step's supervisor was killed by signal 9") == 0);
  CHECK(info.descendantsKilled >= 1);
  pid_t daemon = std::stoi((*p)->stdoutData().data);
  CHECK(!alive(daemon));
  CHECK(std::chrono::steady_clock::now() - start < 10s);
}

TEST_CASE("process spawn: a step that SIGSTOPs its supervisor is ended at once, deadline or not") {
  auto start = std::chrono::steady_clock::now();
  auto p = spawn(shell("setsid sh -c 'sleep 30 & echo $!'; kill -STOP $PPID; exec sleep 30"));
  REQUIRE(p.ok());
  ExitInfo info = (*p)->wait(start + 20s);
  CHECK_FALSE(info.timedOut);
  CHECK(info.signal == SIGKILL);
  CHECK(info.supervisorLost.find("the step's supervisor was stopped") == 0);
  CHECK(info.descendantsKilled >= 1);  // the daemon (the step may die first by pdeathsig)
  pid_t daemon = std::stoi((*p)->stdoutData().data);
  CHECK(!alive(daemon));
  CHECK(std::chrono::steady_clock::now() - start < 5s);
}

TEST_CASE("process spawn: the command is searched in the step's view, past a candidate it may not run") {
  if (::getuid() != 0) {
    MESSAGE("[SKIPPED] needs root: a directory root may search only with its capabilities");
    return;
  }
  // Root may search a 0700 directory of another user only through
  // CAP_DAC_READ_SEARCH, which the step does not keep: the orchestrator can
  // run the shim, the step cannot, so it must get /bin/echo.
  char tmpl[] = "/tmp/lw-shims-XXXXXX";
  std::string shims = ::mkdtemp(tmpl);
  {
    int fd = ::open((shims + "/echo").c_str(), O_WRONLY | O_CREAT, 0755);
    (void)!::write(fd, "#!/bin/sh\necho SHIM\n", 20);
    ::close(fd);
  }
  (void)!::chown(shims.c_str(), 65534, 65534);
  ::chmod(shims.c_str(), 0700);
  std::string out;
  SpawnRequest r;
  r.argv = {"echo", "REAL"};
  r.env = {{"PATH", shims + ":/usr/bin:/bin"}};
  r.childSetup.push_back(dropAllCapabilities());
  ExitInfo info = runToEnd(r, &out);
  CHECK(info.exitCode == 0);
  CHECK(out == "REAL\n");
  ::unlink((shims + "/echo").c_str());
  ::rmdir(shims.c_str());
}

TEST_CASE("process spawn: a command found nowhere in the step's view is SANDBOX_LAUNCH_FAILED with a hint") {
  SpawnRequest r;
  r.argv = {"lw-no-such-command"};
  r.env = {{"PATH", "/nonexistent:/usr/bin"}};
  auto p = spawn(r);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(p.error().message ==
        "command 'lw-no-such-command' not found in the step's view (it is on no entry of the "
        "step's PATH; PATH=/nonexistent:/usr/bin)");
  CHECK_FALSE(p.error().hint.empty());
}

TEST_CASE("process spawn: a step that empties its supervisor's RLIMIT_NOFILE still leaves nothing behind") {
  auto start = std::chrono::steady_clock::now();
  auto p = spawn(shell("prlimit --pid $PPID --nofile=0:0 || exit 2; setsid sh -c 'sleep 30 & echo $!'"));
  REQUIRE(p.ok());
  // No deadline needed to end: the supervisor must still list and sweep its children.
  ExitInfo info = (*p)->wait(start + 20s);
  CHECK(info.exitCode == 0);
  CHECK_FALSE(info.timedOut);
  CHECK(info.supervisorLost.empty());
  CHECK(info.descendantsKilled == 1);
  pid_t daemon = std::stoi((*p)->stdoutData().data);
  CHECK(!alive(daemon));
  CHECK(std::chrono::steady_clock::now() - start < 5s);
}

TEST_CASE("process spawn: a supervisor setup runs before the step is forked, and a failing one is named") {
  char dir[] = "/tmp/lw-supervisor-setup-XXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  const std::string marker = std::string(dir) + "/ran";
  SpawnRequest failing = shell("touch '" + marker + "'");
  failing.supervisorSetup.push_back({"entering the step's namespaces", [] { return EPERM; }});
  auto f = spawn(failing);
  REQUIRE_FALSE(f.ok());
  CHECK(f.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(f.error().message.find("entering the step's namespaces") != std::string::npos);
  CHECK(::access(marker.c_str(), F_OK) != 0);  // the step never ran

  // The supervisor's own state is what the step inherits: a umask here.
  SpawnRequest ok = shell("umask");
  ok.supervisorSetup.push_back({"umask", [] {
                                  ::umask(077);
                                  return 0;
                                }});
  auto p = spawn(ok);
  REQUIRE(p.ok());
  CHECK((*p)->wait(std::nullopt).status() == 0);
  CHECK((*p)->stdoutData().data == "0077\n");
  ::rmdir(dir);
}
