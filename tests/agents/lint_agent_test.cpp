// builtin/lint's main end to end in-process: a scripted bridge answering
// github.pulls.diff with a real git diff, and a real linter run in the
// workspace.
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <boost/json/parse.hpp>

#include "agents/lint/lint_agent.h"
#include "lint_test_support.h"
#include "support/host_requirement.h"

using namespace lw;
namespace json = boost::json;

namespace {

class ScriptedBridge : public agents::BridgeClient {
 public:
  std::string diff;
  std::vector<std::pair<std::string, json::object>> calls;
  Result<json::value> call(const std::string& tool, const json::object& args) override {
    calls.emplace_back(tool, args);
    if (tool != "github.pulls.diff") return makeError(ErrorCode::Internal, "unexpected tool " + tool);
    return json::value(
        json::object{{"base", "b"}, {"head", "h"}, {"incremental", false}, {"diff", diff}, {"truncated", false}});
  }
};

json::object params(json::array command, const std::string& format, const std::string& filterMode) {
  return json::object{
      {"command", std::move(command)}, {"format", format},     {"pattern", "%f:%l:%c: %m"}, {"filterMode", filterMode},
      {"severity", "warning"},         {"rulePrefix", "lint"}, {"maxFindings", 200}};
}

struct AgentRun {
  int status = -1;
  std::string log;
  json::array findings;
};

AgentRun runAgent(ScriptedBridge& bridge, const json::object& with, const test::GitRepo& repo) {
  test::TempDir out;
  std::ostringstream log;
  agents::AgentContext ctx{bridge, with, repo.dir.root, out.root, log};
  AgentRun run;
  run.status = agents::runLintAgent(ctx);
  run.log = log.str();
  std::ifstream in(out.root / "findings.json");
  if (in) {
    std::stringstream s;
    s << in.rdbuf();
    run.findings = json::parse(s.str()).as_object().at("findings").as_array();
  }
  return run;
}

// A pull request that adds one unquoted expansion to a script that already
// had one: shellcheck reports both, `added` keeps the new one.
struct ScriptPullRequest {
  test::GitRepo repo;
  ScriptedBridge bridge;
  ScriptPullRequest() {
    std::string base = repo.commit({{"run.sh", "#!/bin/sh\necho $1\necho ok\n"}});
    std::string head = repo.commit({{"run.sh", "#!/bin/sh\necho $1\necho ok\necho $2\n"}});
    bridge.diff = repo.diff(base, head);
  }
};

}  // namespace

TEST_CASE("lint agent: shellcheck checkstyle filtered to the added line") {
  LW_REQUIRE_HOST(test::toolInPath("shellcheck"), "shellcheck is not installed (Debian package shellcheck)");
  ScriptPullRequest pr;
  AgentRun run =
      runAgent(pr.bridge, params({"shellcheck", "-f", "checkstyle", "run.sh"}, "checkstyle", "added"), pr.repo);
  CHECK_MESSAGE(run.status == 0, run.log);
  REQUIRE(pr.bridge.calls.size() == 1);
  CHECK(pr.bridge.calls[0].first == "github.pulls.diff");
  CHECK(pr.bridge.calls[0].second.at("full") == true);
  REQUIRE(run.findings.size() == 1);
  const json::object& f = run.findings[0].as_object();
  CHECK(f.at("ruleId") == "lint/ShellCheck.SC2086");
  CHECK(f.at("path") == "run.sh");
  CHECK(f.at("line") == 4);
  CHECK(f.at("severity") == "notice");
  CHECK(run.log.find("1 of 2 findings kept") != std::string::npos);
}

TEST_CASE("lint agent: nofilter keeps every finding and asks for no diff") {
  LW_REQUIRE_HOST(test::toolInPath("shellcheck"), "shellcheck is not installed (Debian package shellcheck)");
  ScriptPullRequest pr;
  AgentRun run =
      runAgent(pr.bridge, params({"shellcheck", "-f", "checkstyle", "run.sh"}, "checkstyle", "nofilter"), pr.repo);
  CHECK(run.status == 0);
  CHECK(pr.bridge.calls.empty());
  CHECK(run.findings.size() == 2);
}

TEST_CASE("lint agent: maxFindings keeps the most severe") {
  LW_REQUIRE_HOST(test::toolInPath("shellcheck"), "shellcheck is not installed (Debian package shellcheck)");
  test::GitRepo repo;
  repo.commit({{"s.sh", "#!/bin/sh\necho $1\nx=`ls`\n"}});
  ScriptedBridge bridge;
  json::object with = params({"shellcheck", "-f", "checkstyle", "s.sh"}, "checkstyle", "nofilter");
  with["maxFindings"] = 1;
  AgentRun run = runAgent(bridge, with, repo);
  CHECK(run.status == 0);
  REQUIRE(run.findings.size() == 1);
  CHECK(run.findings[0].as_object().at("ruleId") == "lint/ShellCheck.SC2034");  // the one warning
  CHECK(run.log.find("maxFindings") != std::string::npos);
}

TEST_CASE("lint agent: clang's SARIF with absolute URIs, the severity parameter for levelless results") {
  LW_REQUIRE_HOST(test::toolInPath("clang"), "clang is not installed (Debian package clang)");
  test::GitRepo repo;
  std::string base = repo.commit({{"src/f.c", "int f(int *p) {\n  return 0;\n}\n"}});
  std::string head = repo.commit({{"src/f.c", "int f(int *p) {\n  if (p) return *p;\n  return *p;\n}\n"}});
  ScriptedBridge bridge;
  bridge.diff = repo.diff(base, head);
  json::object with =
      params({"clang", "--analyze", "--analyzer-output", "sarif", "-o", "-", "src/f.c"}, "sarif", "added");
  with["severity"] = "error";
  with["rulePrefix"] = "clang";
  AgentRun run = runAgent(bridge, with, repo);
  CHECK_MESSAGE(run.status == 0, run.log);
  REQUIRE(run.findings.size() == 1);
  const json::object& f = run.findings[0].as_object();
  CHECK(f.at("ruleId") == "clang/core.NullDereference");
  CHECK(f.at("path") == "src/f.c");
  CHECK(f.at("line") == 3);
  CHECK(f.at("severity") == "error");
}

TEST_CASE("lint agent: a linter that is not installed is a clear failure") {
  test::GitRepo repo;
  ScriptedBridge bridge;
  AgentRun run = runAgent(bridge, params({"no-such-linter-lw", "."}, "sarif", "added"), repo);
  CHECK(run.status == 1);
  CHECK(run.log.find("error[TASKPACK_INVALID]") != std::string::npos);
  CHECK(run.log.find("the linter 'no-such-linter-lw' was not found") != std::string::npos);
  CHECK(run.findings.empty());
}

TEST_CASE("lint agent: a failing linter with unreadable output fails the step with its stderr") {
  test::GitRepo repo;
  ScriptedBridge bridge;
  AgentRun run =
      runAgent(bridge, params({"sh", "-c", "echo not-sarif; echo config missing >&2; exit 2"}, "sarif", "added"), repo);
  CHECK(run.status == 1);
  CHECK(run.log.find("exited with status 2 and printed no sarif output") != std::string::npos);
  CHECK(run.log.find("config missing") != std::string::npos);

  AgentRun silent = runAgent(bridge, params({"sh", "-c", "exit 3"}, "checkstyle", "added"), repo);
  CHECK(silent.status == 1);
  CHECK(silent.log.find("exited with status 3 and printed nothing") != std::string::npos);

  AgentRun lines =
      runAgent(bridge, params({"sh", "-c", "echo Segmentation fault; exit 139"}, "pattern", "added"), repo);
  CHECK(lines.status == 1);
  CHECK(lines.log.find("printed no line that `with: pattern` matches") != std::string::npos);
}

TEST_CASE("lint agent: a clean run writes an empty findings.json, a path outside the workspace is dropped") {
  test::GitRepo repo;
  ScriptedBridge bridge;
  AgentRun clean = runAgent(bridge, params({"true"}, "sarif", "added"), repo);
  CHECK(clean.status == 0);
  CHECK(clean.findings.empty());

  AgentRun outside = runAgent(bridge, params({"echo", "/etc/passwd:1:1: hi"}, "pattern", "nofilter"), repo);
  CHECK(outside.status == 0);
  CHECK(outside.findings.empty());
  CHECK(outside.log.find("dropped a finding on '/etc/passwd', outside the repository") != std::string::npos);
}
