// spawnSelfCleaningLauncher beyond the contract it shares with spawn()
// (spawn_contract_test): no supervisor, so a kill is the launcher's and tree
// cleanup is too (see the bwrap cases and the escape suite).
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>

#include "integration/sandbox/spawn_cases.h"
#include "sandbox/process/unsupervised_spawn.h"

using namespace lw::sandbox::process;
using namespace std::chrono_literals;

namespace {

using lw::test::alive;
using lw::test::shell;

}  // namespace

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

TEST_CASE("self-cleaning launcher spawn: child setup steps run before the exec, a failing one is named") {
  SpawnRequest r = shell("ulimit -n; ulimit -f");
  r.childSetup.push_back({"setting limits", [] {
                            rlimit files{64, 64}, size{1024, 1024};
                            return ::setrlimit(RLIMIT_NOFILE, &files) == 0 && ::setrlimit(RLIMIT_FSIZE, &size) == 0
                                       ? 0
                                       : errno;
                          }});
  auto p = spawnSelfCleaningLauncher(r);
  REQUIRE(p.ok());
  CHECK((*p)->wait(std::nullopt).status() == 0);
  CHECK((*p)->stdoutData().data == "64\n2\n");  // ulimit -f counts 512-byte blocks
  rlimit mine{};
  ::getrlimit(RLIMIT_NOFILE, &mine);
  CHECK(mine.rlim_cur != 64);  // the child's own, not ours (it shares our memory, not our limits)

  SpawnRequest failing = shell("exit 0");
  failing.childSetup.push_back({"joining the step's cgroup", [] { return EACCES; }});
  auto f = spawnSelfCleaningLauncher(failing);
  REQUIRE_FALSE(f.ok());
  CHECK(f.error().code == lw::ErrorCode::SandboxLaunchFailed);
  CHECK(f.error().message.find("joining the step's cgroup") != std::string::npos);
}
