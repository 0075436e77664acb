// What both ways of starting a step promise it, run against each: spawn()
// (a supervisor per step) and spawnSelfCleaningLauncher() (bwrap, which
// cleans up after itself). What only one of them does is tested beside it.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "integration/sandbox/spawn_cases.h"
#include "sandbox/process/spawn.h"
#include "sandbox/process/unsupervised_spawn.h"

using namespace lw::sandbox::process;
using namespace std::chrono_literals;
using lw::test::kSpawnEnv;
using lw::test::shell;

namespace {

struct Supervised {
  static auto start(const SpawnRequest& r) { return spawn(r); }
  static constexpr bool kCountsDescendants = true;  // its subreaper does
};

struct SelfCleaning {
  static auto start(const SpawnRequest& r) { return spawnSelfCleaningLauncher(r); }
  static constexpr bool kCountsDescendants = false;  // the launcher's pid namespace does
};

template <class Start>
ExitInfo runToEnd(const SpawnRequest& r, std::string* out = nullptr) {
  return lw::test::runToEnd([](const SpawnRequest& q) { return Start::start(q); }, r, out);
}

}  // namespace

TEST_CASE_TEMPLATE("process start: exit status, signal, output and the PATH of the step's environment", Start,
                   Supervised, SelfCleaning) {
  std::string out;
  SpawnRequest r;
  r.argv = {"echo", "hello"};
  r.env = kSpawnEnv;
  ExitInfo info = runToEnd<Start>(r, &out);
  CHECK(info.exitCode == 0);
  CHECK(info.status() == 0);
  CHECK(out == "hello\n");
  CHECK(runToEnd<Start>(shell("exit 7")).status() == 7);
  ExitInfo sig = runToEnd<Start>(shell("kill -TERM $$"));
  CHECK(sig.signal == SIGTERM);
  CHECK(sig.status() == 128 + SIGTERM);
  CHECK(sig.descendantsKilled.has_value() == Start::kCountsDescendants);
}

TEST_CASE_TEMPLATE("process start: stdout and stderr apart, bounded per stream", Start, Supervised, SelfCleaning) {
  SpawnRequest r = shell("head -c 100000 /dev/zero | tr '\\0' x; echo err >&2");
  r.maxOutputBytes = 1000;
  auto p = Start::start(r);
  REQUIRE(p.ok());
  ExitInfo info = (*p)->wait(std::chrono::steady_clock::now() + 20s);
  CHECK(info.exitCode == 0);
  CHECK((*p)->stdoutData().data.size() == 1000);
  CHECK((*p)->stdoutData().totalBytes == 100000);
  CHECK((*p)->stderrData().data == "err\n");
}

TEST_CASE_TEMPLATE("process start: exactly the environment given", Start, Supervised, SelfCleaning) {
  std::string out;
  SpawnRequest r;
  r.argv = {"/usr/bin/env"};
  r.env = {{"ONLY", "this"}};
  ::setenv("LW_TEST_SECRET", "leak", 1);
  runToEnd<Start>(r, &out);
  ::unsetenv("LW_TEST_SECRET");
  CHECK(out == "ONLY=this\n");
}

TEST_CASE_TEMPLATE("process start: the bridge at 3, extras from 4, nothing inherited", Start, Supervised,
                   SelfCleaning) {
  int opened = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int leaked = ::fcntl(opened, F_DUPFD, 20);  // deliberately not CLOEXEC
  ::close(opened);
  int passed = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
  int extra = ::open("/dev/full", O_RDONLY | O_CLOEXEC);
  REQUIRE(leaked >= 20);
  std::string out;

  SpawnRequest bridgeOnly = shell("ls /proc/self/fd | sort -n | tr '\\n' ' '; readlink /proc/self/fd/3");
  bridgeOnly.passFd = passed;
  runToEnd<Start>(bridgeOnly, &out);
  // ls itself holds one directory descriptor (the first free one).
  CHECK(out == "0 1 2 3 4 /dev/zero\n");

  SpawnRequest both = shell("ls /proc/self/fd | sort -n | tr '\\n' ' '; readlink /proc/self/fd/3 /proc/self/fd/4");
  both.passFd = passed;
  both.extraFds = {extra};
  runToEnd<Start>(both, &out);
  CHECK(out == "0 1 2 3 4 5 /dev/zero\n/dev/full\n");

  SpawnRequest noBridge = shell("test -e /proc/self/fd/3 && echo three; readlink /proc/self/fd/4");
  noBridge.extraFds = {extra};
  ::dup2(passed, 3);  // a leftover at 3 in this process must not reach the child
  runToEnd<Start>(noBridge, &out);
  ::close(3);
  CHECK(out == "/dev/full\n");
  ::close(leaked);
  ::close(passed);
  ::close(extra);
}

TEST_CASE_TEMPLATE("process start: new session, default signal dispositions, empty mask", Start, Supervised,
                   SelfCleaning) {
  std::string out;
  ::signal(SIGPIPE, SIG_IGN);
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  ::pthread_sigmask(SIG_BLOCK, &block, &old);
  runToEnd<Start>(shell("test $(cut -d' ' -f6 /proc/$$/stat) = $$ && echo session"), &out);
  CHECK(out == "session\n");
  // grep itself, not a shell: a shell blocks signals around its own waits.
  SpawnRequest masks;
  masks.argv = {"grep", "-E", "SigIgn|SigBlk", "/proc/self/status"};
  masks.env = kSpawnEnv;
  runToEnd<Start>(masks, &out);
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  CHECK(out == "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

TEST_CASE_TEMPLATE("process start: a missing command fails before starting, an exec failure is reported", Start,
                   Supervised, SelfCleaning) {
  SpawnRequest r;
  r.argv = {"no-such-command-lw"};
  r.env = kSpawnEnv;
  auto p = Start::start(r);
  REQUIRE(!p.ok());
  CHECK(p.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(p.error().message ==
        "command 'no-such-command-lw' not found in the step's view (it is on no entry of the "
        "step's PATH; PATH=/usr/bin:/bin)");
  r.argv = {"/tmp"};
  auto q = Start::start(r);
  REQUIRE(!q.ok());
  CHECK(q.error().message == "execve /tmp failed: Permission denied");
}
