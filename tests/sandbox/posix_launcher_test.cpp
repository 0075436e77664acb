// The POSIX launcher against real processes: on Linux in every build, so
// that the code macOS runs is exercised where CI runs.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <string>

#include "sandbox/process/executable.h"
#include "sandbox/process/posix/posix_launcher.h"
#include "sandbox/process/posix/process_table.h"
#include "support/host_requirement.h"

namespace {

using namespace lw::sandbox::process;
using Clock = std::chrono::steady_clock;

SpawnRequest shell(const std::string& script) {
  SpawnRequest r;
  r.argv = {"sh", "-c", script};
  r.env = {{"PATH", "/usr/bin:/bin"}};
  return r;
}

ExitInfo runToEnd(const SpawnRequest& r, std::string* out = nullptr,
                  std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  auto p = posix::spawnPosix(r);
  REQUIRE(p);
  ExitInfo info = p.value()->wait(Clock::now() + limit);
  if (out != nullptr) *out = p.value()->stdoutData().data;
  return info;
}

// Alive and not a zombie, as the process table shows it.
bool running(pid_t pid) {
  for (const auto& e : posix::readProcessTable())
    if (e.pid == pid) return !e.zombie;
  return false;
}

}  // namespace

TEST_CASE("posix launcher: the step gets exactly its environment, its stdin is empty and its output is captured") {
  SpawnRequest r = shell("echo \"home=${HOME:-unset} lw=$LW_TEST_VAR\"; cat; echo oops >&2; exit 3");
  r.env["LW_TEST_VAR"] = "given";
  ::setenv("HOME", "/leaked-home", 0);
  auto p = posix::spawnPosix(r);
  REQUIRE(p);
  const ExitInfo info = p.value()->wait(Clock::now() + std::chrono::seconds(20));
  CHECK(info.exitCode == 3);
  CHECK(p.value()->stdoutData().data == "home=unset lw=given\n");
  CHECK(p.value()->stderrData().data == "oops\n");
}

TEST_CASE("posix launcher: the step carries a new tree mark after the one its launcher carries") {
  std::string out;
  ::unsetenv("LOOPWRIGHT_TREE");
  runToEnd(shell("echo \"$LOOPWRIGHT_TREE\""), &out);
  REQUIRE(out.size() == 17);
  CHECK(out.find_first_not_of("0123456789abcdef") == 16);
  std::string again;
  runToEnd(shell("echo \"$LOOPWRIGHT_TREE\""), &again);
  CHECK(again != out);
  // loopwright run inside a step passes that step's mark on.
  ::setenv("LOOPWRIGHT_TREE", "outer", 1);
  std::string nested;
  runToEnd(shell("echo \"$LOOPWRIGHT_TREE\""), &nested);
  ::unsetenv("LOOPWRIGHT_TREE");
  CHECK(nested.rfind("outer:", 0) == 0);
  CHECK(nested.size() == 6 + 17);
}

TEST_CASE("posix launcher: a descriptor not passed is closed in the step, the passed one is fd 3") {
  // Both above the numbers the step is given (0-3), opened without
  // O_CLOEXEC, as a careless library would.
  const int leaked = ::fcntl(::open("/dev/null", O_RDONLY), F_DUPFD, 20);
  REQUIRE(leaked >= 20);
  int pass[2];
  REQUIRE(::pipe(pass) == 0);
  pass[0] = ::fcntl(pass[0], F_DUPFD, 20);
  SpawnRequest r = shell("for fd in " + std::to_string(leaked) + " " + std::to_string(pass[0]) +
                         "; do if (exec 9<&$fd) 2>/dev/null; then echo open $fd; fi; done; echo via3 >&3");
  r.passFd = pass[1];
  std::string out;
  const ExitInfo info = runToEnd(r, &out);
  ::close(pass[1]);
  char buf[16] = {};
  const auto got = ::read(pass[0], buf, sizeof buf - 1);
  ::close(pass[0]);
  ::close(leaked);
  CHECK(info.exitCode == 0);
  CHECK(out == "");
  CHECK(got == 5);
  CHECK(std::string(buf) == "via3\n");
}

TEST_CASE("posix launcher: the step leads a new session and process group") {
  std::string out;
  // ps is not everywhere alike; the step's own table entry is read instead.
  auto p = posix::spawnPosix(shell("echo $$; sleep 5"));
  REQUIRE(p);
  const pid_t pid = p.value()->pid();
  bool found = false;
  for (int i = 0; i < 100 && !found; ++i) {
    for (const auto& e : posix::readProcessTable()) {
      if (e.pid != pid) continue;
      found = true;
      CHECK(e.sid == pid);
      CHECK(e.pgid == pid);
    }
  }
  CHECK(found);
  p.value()->kill();
  CHECK(::getsid(0) != pid);
}

TEST_CASE("posix launcher: output past the bound is counted, not kept") {
  SpawnRequest r = shell("head -c 100000 /dev/zero");
  r.maxOutputBytes = 1000;
  auto p = posix::spawnPosix(r);
  REQUIRE(p);
  p.value()->wait(Clock::now() + std::chrono::seconds(20));
  CHECK(p.value()->stdoutData().data.size() == 1000);
  CHECK(p.value()->stdoutData().totalBytes == 100000);
}

TEST_CASE("posix launcher: at the wall-time limit the step and its children are killed") {
  const auto start = Clock::now();
  std::string out;
  const ExitInfo info = runToEnd(shell("sleep 30 & echo $!; sleep 30"), &out, std::chrono::milliseconds(500));
  CHECK(info.timedOut);
  CHECK(info.status() == 124);
  CHECK(Clock::now() - start < std::chrono::seconds(10));
  REQUIRE_FALSE(out.empty());
  CHECK_FALSE(running(std::stoi(out)));
}

TEST_CASE("posix launcher: a child left running in the step's session is killed when the step ends") {
  std::string out;
  const ExitInfo info = runToEnd(shell("(sleep 30 & echo $!) ; exit 0"), &out);
  CHECK(info.exitCode == 0);
  REQUIRE_FALSE(out.empty());
  CHECK_FALSE(running(std::stoi(out)));
  CHECK(info.descendantsKilled.value_or(0) >= 1);
}

TEST_CASE("posix launcher: a daemon that left the step's session is killed when the step ends") {
  LW_REQUIRE_HOST(::access("/usr/bin/perl", X_OK) == 0, "no /usr/bin/perl to start a daemon with");
  std::string out;
  // A background job (not a group leader) that calls setsid(2) and execs
  // sleep: a new session, re-parented to init once the shell has ended.
  const ExitInfo info =
      runToEnd(shell("/usr/bin/perl -e 'use POSIX; POSIX::setsid() or die; exec \"sleep\", \"30\"' & echo $!; "
                     "sleep 0.3"),
               &out);
  CHECK(info.exitCode == 0);
  REQUIRE_FALSE(out.empty());
  const pid_t daemon = std::stoi(out);
  const bool survived = running(daemon);
  if (survived) ::kill(daemon, SIGKILL);
  CHECK_FALSE(survived);
}

TEST_CASE("posix launcher: a command found nowhere, and setup steps it cannot run, fail to launch") {
  SpawnRequest missing = shell("");
  missing.argv = {"lw-no-such-command"};
  auto p = posix::spawnPosix(missing);
  REQUIRE_FALSE(p);
  CHECK(p.error().code == lw::ErrorCode::SandboxLaunchFailed);
  SpawnRequest setup = shell("true");
  setup.childSetup.push_back({"landlock_restrict_self", [] { return 0; }});
  auto q = posix::spawnPosix(setup);
  REQUIRE_FALSE(q);
  CHECK(q.error().message.find("landlock_restrict_self") != std::string::npos);
}
