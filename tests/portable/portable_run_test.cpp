// The portable build's `loopwright` (LOOPWRIGHT_LINUX_BACKENDS=OFF, the POSIX
// launcher) end to end: what a macOS machine runs, exercised on Linux in CI.
#include <doctest/doctest.h>
#include <signal.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "sandbox/direct/direct_backend.h"

using namespace lw::test;

namespace {

std::string directStep(const std::string& step) {
  return taskpack("    - name: s\n      on: [workflow_dispatch]\n      steps:\n" + step,
                  "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n");
}

// The pid of a running `sleep SECONDS`, 0 when none runs (pgrep is on Linux
// and macOS alike; the bracket keeps the pattern from matching the shell
// that runs pgrep).
pid_t sleepRunning(const std::string& seconds) {
  const std::string out = capture("pgrep -f 'sleep [" + seconds.substr(0, 1) + "]" + seconds.substr(1) + "'");
  return out.empty() ? 0 : static_cast<pid_t>(std::stoi(out));
}

}  // namespace

TEST_CASE("portable run: a pipeline runs end to end on direct-dedicated with the POSIX launcher") {
  Scratch s;
  const fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   directStep("        - {name: hello, run: [sh, -c, 'echo hello > \"$LOOPWRIGHT_OUT/hello.txt\"; "
                              "echo said hello']}\n")}});
  auto r = runDispatch(s, repo);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const auto step = stepOf(runJson(s.root / "out"), "hello");
  CHECK(step.at("outcome").as_string() == "passed");
  CHECK(step.at("backend").as_string() == "direct-dedicated");
  CHECK(step.at("verification").at("result").as_string() == "passed");
}

TEST_CASE("portable run: a step that daemonises leaves no process behind") {
  LW_REQUIRE_HOST(::access("/usr/bin/perl", X_OK) == 0, "no /usr/bin/perl to daemonise with");
  Scratch s;
  const fs::path repo = s.root / "repo";
  // A background job calls setsid(2) and execs sleep: it leaves the step's
  // session at once, and is re-parented away from the step when the shell ends.
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   directStep("        - {name: daemon, run: [sh, -c, '/usr/bin/perl -e \"use POSIX; POSIX::setsid() "
                              "or die; exec q(sleep), q(4343.5)\" & sleep 0.3']}\n")}});
  auto r = runDispatch(s, repo);
  INFO(r.out << r.err);
  const pid_t survivor = sleepRunning("4343.5");
  if (survivor != 0) ::kill(survivor, SIGKILL);
  CHECK(survivor == 0);
  CHECK(stepOf(runJson(s.root / "out"), "daemon").at("outcome").as_string() == "passed");
}

TEST_CASE("portable run: at its wall-time limit a step and its children are killed") {
  Scratch s;
  const fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   directStep("        - {name: slow, run: [sh, -c, 'sleep 4242.5 & sleep 4242.5'], "
                              "limits: {wallTimeMs: 1000}}\n")}});
  auto r = runDispatch(s, repo);
  INFO(r.out << r.err);
  CHECK(r.status == 4);
  const auto step = stepOf(runJson(s.root / "out"), "slow");
  CHECK(step.at("timedOut").as_bool());
  const pid_t survivor = sleepRunning("4242.5");
  if (survivor != 0) ::kill(survivor, SIGKILL);
  CHECK(survivor == 0);
}

TEST_CASE("portable run: direct-dedicated claims processTreeCleanup only where the canary saw its daemon die") {
  using lw::sandbox::Support;
  const auto seen = lw::sandbox::direct::classifyPosix(std::nullopt);
  CHECK(seen.available);
  CHECK(seen.capabilities.at(lw::Capability::ProcessTreeCleanup).support == Support::Enforced);
  const auto missed = lw::sandbox::direct::classifyPosix(std::string("a daemon outlived its step"));
  CHECK(missed.available);
  CHECK(missed.capabilities.at(lw::Capability::ProcessTreeCleanup).support == Support::Partial);
  CHECK(missed.capabilities.at(lw::Capability::ProcessTreeCleanup).reason.find("a daemon outlived its step") !=
        std::string::npos);
  CHECK(missed.capabilities.at(lw::Capability::FilesystemReadContainment).support == Support::Absent);
}
