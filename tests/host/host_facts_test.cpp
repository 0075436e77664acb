#include <doctest/doctest.h>

#include "host/host_facts.h"

using namespace lw;
using namespace lw::host;

TEST_CASE("host facts: the supported platforms, and others named unsupported") {
  struct Row {
    const char* sys;
    const char* machine;
    const char* pair;
    bool ok;
  };
  for (Row r : {Row{"Linux", "x86_64", "linux/x64", true}, Row{"Linux", "aarch64", "linux/arm64", true},
                Row{"Darwin", "arm64", "darwin/arm64", true}, Row{"Darwin", "x86_64", "darwin/x64", false},
                Row{"Linux", "riscv64", "linux/riscv64", false}, Row{"FreeBSD", "amd64", "freebsd/x64", false}}) {
    CAPTURE(r.pair);
    PlatformFacts p = classifyPlatform(r.sys, r.machine);
    CHECK(p.os + "/" + p.arch == r.pair);
    CHECK(p.supported == r.ok);
    if (!r.ok)
      CHECK(p.unsupportedReason ==
            std::string(r.pair) + " is not supported (supported: darwin/arm64, linux/arm64, linux/x64)");
  }
}

TEST_CASE("host facts: cgroup version and whether cgroup.kill is usable") {
  const std::string self = "0::/user.slice/user-1000.slice/session-3.scope\n";
  CgroupFacts c = classifyCgroup(true, false, self, true, true);
  CHECK(c.version == 2);
  CHECK(c.ownCgroup == "/user.slice/user-1000.slice/session-3.scope");
  CHECK(c.killUsable);

  c = classifyCgroup(true, false, self, true, false);
  CHECK_FALSE(c.killUsable);
  CHECK(c.killReason.find("not writable by this user (not delegated)") != std::string::npos);

  c = classifyCgroup(true, false, self, false, false);
  CHECK(c.killReason.find("kernel older than 5.14") != std::string::npos);

  c = classifyCgroup(false, true, "12:memory:/x\n0::/x\n", false, false);
  CHECK(c.version == 1);
  CHECK_FALSE(c.killUsable);
  CHECK(classifyCgroup(false, false, "", false, false).version == 0);
}

TEST_CASE("host facts: runner, ephemeral from .runner (with a BOM) or github-hosted, hooks from .env") {
  Environment none;
  RunnerFacts r = classifyRunner(none, "", std::nullopt, std::nullopt);
  CHECK_FALSE(r.actions);
  CHECK_FALSE(r.ephemeral);
  CHECK_FALSE(r.hooksInstalled);

  Environment gh({{"GITHUB_ACTIONS", "true"}, {"RUNNER_ENVIRONMENT", "self-hosted"}, {"RUNNER_NAME", "r1"}});
  r = classifyRunner(gh, "/opt/runner",
                     std::string("\xEF\xBB\xBF{\"agentName\":\"r1\",\"workFolder\":\"_work\",\"ephemeral\":true}"),
                     std::nullopt);
  CHECK(r.actions);
  CHECK(r.name == "r1");
  REQUIRE(r.ephemeral);
  CHECK(*r.ephemeral);
  CHECK(r.ephemeralSource == "/opt/runner/.runner");

  r = classifyRunner(gh, "/opt/runner", std::string("{\"agentName\":\"r1\"}"),
                     std::string("LANG=C\nACTIONS_RUNNER_HOOK_JOB_STARTED=/opt/loopwright/job-started.sh\n"
                                 "ACTIONS_RUNNER_HOOK_JOB_COMPLETED=/opt/loopwright/job-completed.sh\n"));
  REQUIRE(r.ephemeral);
  CHECK_FALSE(*r.ephemeral);  // persistent: the runner omits the key
  CHECK(r.hooksInstalled);
  CHECK(r.hooksSource == "/opt/runner/.env");

  Environment hosted({{"GITHUB_ACTIONS", "true"}, {"RUNNER_ENVIRONMENT", "github-hosted"}});
  r = classifyRunner(hosted, "", std::nullopt, std::nullopt);
  REQUIRE(r.ephemeral);
  CHECK(*r.ephemeral);

  r = classifyRunner(gh, "/opt/runner", std::string("not json"), std::nullopt);
  CHECK_FALSE(r.ephemeral);
  CHECK(r.ephemeralSource == "/opt/runner/.runner (unreadable JSON)");
}
