#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <boost/json/parse.hpp>

#include "support/run_cli.h"
#include "support/temp_dir.h"

using lw::test::runCli;
using lw::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kExample = std::string(LOOPWRIGHT_SOURCE_DIR) + "/examples/review/.loopwright/taskpack.yaml";

const char* kNoSandbox = R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: plain}
spec:
  stages:
    - name: review
      on: [pull_request.opened]
      steps:
        - {name: a, run: [x]}
        - {name: b, run: [y]}
    - name: triage
      on: [issues.opened]
      steps:
        - {name: c, run: [z], role: triage}
)";

}  // namespace

TEST_CASE("cli: --version and --help exit 0, no arguments is a usage error") {
  auto v = runCli({"--version"});
  CHECK(v.status == 0);
  CHECK(v.out.rfind("loopwright ", 0) == 0);
  auto h = runCli({"--help"});
  CHECK(h.status == 0);
  CHECK(h.out.find("validate") != std::string::npos);
  CHECK(h.out.find("explain") != std::string::npos);
  // Every command's summary starts in one column, apart from its name.
  CHECK(h.out.find("  runner hook job-completed  job hook") != std::string::npos);
  CHECK(h.out.find("  validate                   check a taskpack") != std::string::npos);
  CHECK(runCli({}).status == 2);
  auto sub = runCli({"validate", "--help"});
  CHECK(sub.status == 0);
  CHECK(sub.out.rfind("usage: loopwright validate", 0) == 0);
}

TEST_CASE("cli: unknown commands and options exit 2 with code, message and hint") {
  auto r = runCli({"frobnicate"});
  CHECK(r.status == 2);
  CHECK(r.err ==
        "loopwright: error[USAGE_ERROR]: unknown command 'frobnicate'\n"
        "hint: run 'loopwright --help' for the commands\n");
  auto o = runCli({"validate", "--nope"});
  CHECK(o.status == 2);
  CHECK(o.err.find("error[USAGE_ERROR]: unknown option '--nope'") != std::string::npos);
  auto j = runCli({"frobnicate", "--json"});
  CHECK(j.status == 2);
  auto obj = boost::json::parse(j.out).as_object();
  CHECK(obj.at("code").as_string() == "USAGE_ERROR");
  CHECK(obj.contains("hint"));
  CHECK(obj.contains("location"));
}

TEST_CASE("cli: validate accepts the example and reports all five mistakes of a bad taskpack") {
  auto ok = runCli({"validate", kExample});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("valid taskpack 'pr-review'") != std::string::npos);

  const std::string bad = std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/taskpacks/five-mistakes.yaml";
  auto r = runCli({"validate", bad});
  CHECK(r.status == 2);
  CHECK(r.err.find("error[TASKPACK_INVALID]: " + bad + ": 5 problems") != std::string::npos);
  for (const char* where :
       {":4:9: metadata.name:", ":7:5: spec.sandbox.networkmode:", ":8:38: spec.sandbox.preferredBackends[1]:",
        ":9:14: spec.isolation:", ":16:17: spec.stages[0].steps[0].role:"})
    CHECK_MESSAGE(r.err.find(bad + where) != std::string::npos, where);
  CHECK(r.err.find("hint: did you mean 'networkMode'?") != std::string::npos);

  auto j = runCli({"validate", bad, "--json"});
  CHECK(j.status == 2);
  auto obj = boost::json::parse(j.out).as_object();
  CHECK(obj.at("code").as_string() == "TASKPACK_INVALID");
  CHECK(obj.at("diagnostics").as_array().size() == 5);
  CHECK(obj.at("diagnostics").as_array()[0].at("location").at("line").as_int64() == 4);
}

TEST_CASE("cli: every example's taskpack is valid as shipped") {
  for (const char* example : {"review", "pr-review", "triage"}) {
    auto r = runCli({"validate", "--repo", std::string(LOOPWRIGHT_SOURCE_DIR) + "/examples/" + example});
    CHECK_MESSAGE(r.status == 0, example, ": ", r.err);
  }
}

TEST_CASE("cli: validate finds .loopwright/taskpack.yaml under --repo, and says when it is missing") {
  TempDir dir;
  dir.write(".loopwright/taskpack.yaml", kNoSandbox);
  CHECK(runCli({"validate", "--repo", dir.root.string()}).status == 0);
  CHECK(runCli({"validate"}, {}, dir.root.string()).status == 0);
  auto missing = runCli({"validate", "--repo", "/nonexistent"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("cannot open /nonexistent/.loopwright/taskpack.yaml") != std::string::npos);
}

TEST_CASE("cli: explain under GITHUB_ACTIONS=true with no sandbox policy shows direct-dedicated") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", kNoSandbox);
  std::map<std::string, std::string> env = {
      {"GITHUB_ACTIONS", "true"},
      {"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml",
                                           "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                                           "floor: {allowDirectDedicated: true}\n")}};
  auto r = runCli({"explain", tp, "--json"}, env);
  REQUIRE(r.status == 0);
  auto steps = boost::json::parse(r.out).at("steps").as_array();
  REQUIRE(steps.size() == 3);
  for (const auto& s : steps) {
    const auto& sb = s.at("sandbox").as_object();
    CHECK(sb.at("preferredBackends").as_array() == boost::json::array{"direct-dedicated"});
    CHECK(sb.at("networkMode").as_string() == "allow-outbound");
    CHECK(sb.at("requiredCapabilities").as_array() == boost::json::array{"processTreeCleanup"});
    CHECK(sb.at("allowDedicatedDirectOverride").as_bool());
  }
  env.erase("GITHUB_ACTIONS");
  auto local = runCli({"explain", tp, "--json"}, env);
  REQUIRE(local.status == 0);
  auto localJson = boost::json::parse(local.out);
  for (const auto& s : localJson.at("steps").as_array()) {
    CHECK(s.at("sandbox").at("preferredBackends").as_array() ==
          boost::json::array{"macos-seatbelt", "linux-bwrap", "linux-landlock", "linux-gvisor"});
    CHECK(s.at("sandbox").at("networkMode").as_string() == "none");
  }
  auto human = runCli({"explain", tp, "--event-name", "issues.opened"}, env);
  CHECK(human.status == 0);
  CHECK(human.out.find("stage triage / step c (role triage)") != std::string::npos);
  CHECK(human.out.find("stage review") == std::string::npos);
}

TEST_CASE("cli: a floor the taskpack does not meet is POLICY_FLOOR_VIOLATION, exit 2") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", kNoSandbox);
  std::string host = dir.write("host.yaml",
                               "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
                               "floor: {allowDirectDedicated: false}\n");
  auto r = runCli({"explain", tp}, {{"GITHUB_ACTIONS", "true"}, {"LOOPWRIGHT_HOST_CONFIG", host}});
  CHECK(r.status == 2);
  CHECK(r.err.find("error[POLICY_FLOOR_VIOLATION]") != std::string::npos);
  CHECK(r.err.find("direct-dedicated") != std::string::npos);
  CHECK(r.err.find("hint: ") != std::string::npos);
}

TEST_CASE("cli: an invalid host config is an error, never ignored") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", kNoSandbox);
  std::string host = dir.write("host.yaml", "floor: [\n");
  auto r = runCli({"explain", tp}, {{"LOOPWRIGHT_HOST_CONFIG", host}});
  CHECK(r.status == 2);
  CHECK(r.err.find("error[HOST_CONFIG_INVALID]") != std::string::npos);
  auto missing = runCli({"explain", tp}, {{"LOOPWRIGHT_HOST_CONFIG", "/nonexistent/host.yaml"}});
  CHECK(missing.status == 2);
}
