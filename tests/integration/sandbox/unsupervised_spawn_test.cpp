// spawnSelfCleaningLauncher beyond the contract it shares with spawn()
// (spawn_contract_test): no supervisor, so a kill is the launcher's and tree
// cleanup is too (see the bwrap cases and the escape suite).
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

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

TEST_CASE("self-cleaning launcher spawn: refuses child setup steps (no code of ours runs before exec)") {
  SpawnRequest r = shell("exit 0");
  r.childSetup.push_back({"landlock ruleset", [] { return 0; }});
  auto p = spawnSelfCleaningLauncher(r);
  REQUIRE(!p.ok());
  CHECK(p.error().code == lw::ErrorCode::Internal);
}
