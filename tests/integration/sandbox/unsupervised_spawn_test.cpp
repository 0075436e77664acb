// spawnSelfCleaningLauncher: the same process contract as spawn() without a
// supervisor (tree cleanup is the launcher's: see the bwrap cases and the
// escape suite).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>

#include "integration/sandbox/spawn_cases.h"
#include "sandbox/process/unsupervised_spawn.h"

using namespace lw::sandbox::process;
using namespace std::chrono_literals;

namespace {

const auto& kEnv = lw::test::kSpawnEnv;
using lw::test::alive;
using lw::test::shell;

ExitInfo runToEnd(const SpawnRequest& r, std::string* out = nullptr) {
  return lw::test::runToEnd([](const SpawnRequest& q) { return spawnSelfCleaningLauncher(q); }, r, out);
}

}  // namespace

TEST_CASE("self-cleaning launcher spawn: exit status, signal and output") {
  std::string out;
  SpawnRequest r;
  r.argv = {"echo", "hello"};
  r.env = kEnv;
  CHECK(runToEnd(r, &out).status() == 0);
  CHECK(out == "hello\n");
  CHECK(runToEnd(shell("exit 7")).status() == 7);
  ExitInfo sig = runToEnd(shell("kill -TERM $$"));
  CHECK(sig.signal == SIGTERM);
  CHECK(sig.status() == 128 + SIGTERM);
  CHECK_FALSE(sig.descendantsKilled.has_value());  // the kernel's, not counted
}

TEST_CASE("self-cleaning launcher spawn: stdout and stderr apart, bounded per stream") {
  SpawnRequest r = shell("head -c 100000 /dev/zero | tr '\\0' x; echo err >&2");
  r.maxOutputBytes = 1000;
  auto p = spawnSelfCleaningLauncher(r);
  REQUIRE(p.ok());
  (*p)->wait(std::chrono::steady_clock::now() + 20s);
  CHECK((*p)->stdoutData().data.size() == 1000);
  CHECK((*p)->stdoutData().totalBytes == 100000);
  CHECK((*p)->stderrData().data == "err\n");
}

TEST_CASE("self-cleaning launcher spawn: exactly the environment given") {
  std::string out;
  SpawnRequest r = shell("env | sort | tr '\\n' ' '");
  r.env = {{"PATH", "/usr/bin:/bin"}, {"ONLY", "this"}};
  runToEnd(r, &out);
  CHECK(out.find("ONLY=this") != std::string::npos);
  CHECK(out.find("HOME=") == std::string::npos);
}

TEST_CASE("self-cleaning launcher spawn: the bridge at 3, extras from 4, nothing inherited") {
  int opened = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int leaked = ::fcntl(opened, F_DUPFD, 20);  // deliberately not CLOEXEC
  ::close(opened);
  int passed = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  int extra = ::open("/dev/full", O_RDONLY | O_CLOEXEC);
  REQUIRE(leaked >= 20);
  std::string out;
  SpawnRequest r = shell("ls /proc/self/fd | sort -n | tr '\\n' ' '; readlink /proc/self/fd/3 /proc/self/fd/4");
  r.passFd = passed;
  r.extraFds = {extra};
  runToEnd(r, &out);
  // ls itself holds one directory descriptor (the first free one, 5).
  CHECK(out == "0 1 2 3 4 5 /dev/zero\n/dev/full\n");

  SpawnRequest noBridge = shell("test -e /proc/self/fd/3 && echo three; readlink /proc/self/fd/4");
  noBridge.extraFds = {extra};
  ::dup2(passed, 3);  // a leftover at 3 in this process must not reach the child
  runToEnd(noBridge, &out);
  ::close(3);
  CHECK(out == "/dev/full\n");
  ::close(leaked);
  ::close(passed);
  ::close(extra);
}

TEST_CASE("self-cleaning launcher spawn: new session, default signal dispositions, empty mask") {
  std::string out;
  ::signal(SIGPIPE, SIG_IGN);
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  ::pthread_sigmask(SIG_BLOCK, &block, &old);
  runToEnd(shell("test $(cut -d' ' -f6 /proc/$$/stat) = $$ && echo session"), &out);
  CHECK(out == "session\n");
  // grep itself, not a shell: a shell blocks signals around its own waits.
  SpawnRequest masks;
  masks.argv = {"grep", "-E", "SigIgn|SigBlk", "/proc/self/status"};
  masks.env = kEnv;
  runToEnd(masks, &out);
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  CHECK(out == "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST_CASE("self-cleaning launcher spawn: the deadline kills the launcher and reports a timeout") {
  auto start = std::chrono::steady_clock::now();
  auto p = spawnSelfCleaningLauncher(shell("exec sleep 30"));
  REQUIRE(p.ok());
  ExitInfo info = (*p)->wait(start + 300ms);
  CHECK(info.timedOut);
  CHECK(info.status() == 124);
  CHECK(std::chrono::steady_clock::now() - start < 5s);
  CHECK(!alive((*p)->pid()));
}

TEST_CASE("self-cleaning launcher spawn: kill, and a launcher dropped without wait is killed") {
  auto a = spawnSelfCleaningLauncher(shell("exec sleep 30"));
  REQUIRE(a.ok());
  (*a)->kill();
  CHECK((*a)->wait(std::nullopt).signal == SIGKILL);
  pid_t dropped = 0;
  {
    auto b = spawnSelfCleaningLauncher(shell("exec sleep 30"));
    REQUIRE(b.ok());
    dropped = (*b)->pid();
  }
  CHECK(!alive(dropped));
}

TEST_CASE("self-cleaning launcher spawn: refuses child setup steps and unknown commands") {
  SpawnRequest r = shell("exit 0");
  r.childSetup.push_back({"landlock ruleset", [] { return 0; }});
  auto p = spawnSelfCleaningLauncher(r);
  REQUIRE(!p.ok());
  CHECK(p.error().code == lw::ErrorCode::Internal);
  SpawnRequest missing;
  missing.argv = {"no-such-command-lw"};
  missing.env = kEnv;
  auto q = spawnSelfCleaningLauncher(missing);
  REQUIRE(!q.ok());
  CHECK(q.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(q.error().message == "command 'no-such-command-lw' not found in the step's PATH");
  missing.argv = {"/tmp"};
  auto x = spawnSelfCleaningLauncher(missing);
  REQUIRE(!x.ok());
  CHECK(x.error().message == "execve /tmp failed: Permission denied");
}
