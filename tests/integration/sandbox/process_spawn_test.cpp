#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
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

TEST_CASE("process spawn: exit status, output and the PATH of the step's environment") {
  std::string out;
  SpawnRequest r;
  r.argv = {"echo", "hello"};
  r.env = kEnv;
  ExitInfo info = runToEnd(r, &out);
  CHECK(info.exitCode == 0);
  CHECK(info.status() == 0);
  CHECK(out == "hello\n");
  CHECK(runToEnd(shell("exit 7")).status() == 7);
  ExitInfo sig = runToEnd(shell("kill -TERM $$"));
  CHECK(sig.signal == SIGTERM);
  CHECK(sig.status() == 128 + SIGTERM);
}

TEST_CASE("process spawn: stderr is captured apart and bounded per stream") {
  SpawnRequest r = shell("head -c 100000 /dev/zero | tr '\\0' x; echo err >&2");
  r.maxOutputBytes = 1000;
  auto p = spawn(r);
  REQUIRE(p.ok());
  ExitInfo info = (*p)->wait(std::nullopt);
  CHECK(info.exitCode == 0);
  CHECK((*p)->stdoutData().data.size() == 1000);
  CHECK((*p)->stdoutData().totalBytes == 100000);
  CHECK((*p)->stderrData().data == "err\n");
}

TEST_CASE("process spawn: the environment is exactly the one given") {
  std::string out;
  SpawnRequest r;
  r.argv = {"/usr/bin/env"};
  r.env = {{"ONLY", "this"}};
  ::setenv("LW_TEST_SECRET", "leak", 1);
  runToEnd(r, &out);
  ::unsetenv("LW_TEST_SECRET");
  CHECK(out == "ONLY=this\n");
}

TEST_CASE("process spawn: no inherited descriptor but the passed one, which is fd 3") {
  int opened = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int leaked = ::fcntl(opened, F_DUPFD, 20);  // deliberately not CLOEXEC
  ::close(opened);
  int passed = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  REQUIRE(leaked >= 20);
  std::string out;
  SpawnRequest r = shell("ls /proc/self/fd | sort -n | tr '\\n' ' '; readlink /proc/self/fd/3");
  r.passFd = passed;
  runToEnd(r, &out);
  ::close(leaked);
  ::close(passed);
  // ls itself holds one directory descriptor (3 is taken, so 4).
  CHECK(out == "0 1 2 3 4 /dev/zero\n");
}

TEST_CASE("process spawn: extra descriptors land at 4 and up, fd 3 stays closed without a bridge") {
  int extra = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  std::string out;
  SpawnRequest r = shell("test -e /proc/self/fd/3 && echo three; readlink /proc/self/fd/4");
  r.extraFds = {extra};
  runToEnd(r, &out);
  ::close(extra);
  CHECK(out == "/dev/zero\n");
}

TEST_CASE("process spawn: new session, no-new-privileges, default signal dispositions") {
  std::string out;
  ::signal(SIGPIPE, SIG_IGN);
  runToEnd(shell("test $(cut -d' ' -f6 /proc/$$/stat) = $$ && echo session"), &out);
  CHECK(out == "session\n");
  // grep itself, not a shell: a shell blocks signals around its own waits.
  SpawnRequest status;
  status.argv = {"grep", "-E", "NoNewPrivs|SigBlk|SigIgn", "/proc/self/status"};
  status.env = kEnv;
  runToEnd(status, &out);
  ::signal(SIGPIPE, SIG_DFL);
  CHECK(out == "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\nNoNewPrivs:\t1\n");
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

TEST_CASE("process spawn: a missing command fails before fork and an exec failure is reported") {
  SpawnRequest r;
  r.argv = {"no-such-command-lw"};
  r.env = kEnv;
  auto p = spawn(r);
  REQUIRE(!p.ok());
  CHECK(p.error().message == "command 'no-such-command-lw' not found in the step's PATH");
  r.argv = {"/tmp"};
  auto q = spawn(r);
  REQUIRE(!q.ok());
  CHECK(q.error().message == "execve /tmp failed: Permission denied");
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
