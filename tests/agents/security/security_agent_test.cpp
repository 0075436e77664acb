// builtin/security's main against a scripted bridge: what it asks the
// bridge for, the findings.json it writes, its parameters, and a tool error.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>

#include <boost/json.hpp>

#include "agents/security/rules.h"
#include "agents/security/scan/security_agent.h"
#include "core/file_io.h"
#include "support/temp_dir.h"

using namespace lw;
namespace json = boost::json;

namespace {

// Answers github.pulls.diff with `diff` and github.file from `files`
// (path -> content at head); records every call.
class SecurityBridge : public agents::BridgeClient {
 public:
  std::string diff;
  std::map<std::string, std::string> files;
  std::optional<Error> diffError;
  std::set<std::string> truncatedFiles;  // answered with truncated: true
  std::vector<std::string> calls;

  Result<json::value> call(const std::string& tool, const json::object& args) override {
    calls.push_back(tool + " " + json::serialize(args));
    if (tool == "github.pulls.diff") {
      if (diffError) return *diffError;
      return json::value{{"base", "b"}, {"head", "h"}, {"incremental", false}, {"diff", diff}, {"truncated", false}};
    }
    if (tool == "github.file") {
      auto it = files.find(std::string(args.at("path").as_string()));
      if (it == files.end()) return makeError(ErrorCode::PublicationFailed, "not found");
      return json::value{
          {"path", it->first},         {"ref", "head"},         {"sha", "h"},
          {"size", it->second.size()}, {"content", it->second}, {"truncated", truncatedFiles.count(it->first) > 0}};
    }
    return makeError(ErrorCode::Internal, "unexpected tool " + tool);
  }
};

// The pull request: a workflow whose line 3 is new (a pinned checkout
// replaced by a tag, and an injectable run:), a README, and a new requirement.
const char* kWorkflow =
    "on: pull_request\n"
    "jobs:\n"
    "  t:\n"
    "    runs-on: ubuntu-latest\n"
    "    steps:\n"
    "      - uses: someone/action@v2\n"
    "      - run: echo \"${{ github.event.pull_request.title }}\"\n";

const char* kDiff =
    "diff --git a/.github/workflows/t.yml b/.github/workflows/t.yml\n"
    "index 1111111..2222222 100644\n"
    "--- a/.github/workflows/t.yml\n"
    "+++ b/.github/workflows/t.yml\n"
    "@@ -5,2 +5,3 @@ jobs:\n"
    "     steps:\n"
    "-      - uses: someone/action@0b7c3c7f6a6c4a0e8e3a1f0f4a2b7d9c1e5f3a2b\n"
    "+      - uses: someone/action@v2\n"
    "+      - run: echo \"${{ github.event.pull_request.title }}\"\n"
    "diff --git a/README.md b/README.md\n"
    "index 3333333..4444444 100644\n"
    "--- a/README.md\n"
    "+++ b/README.md\n"
    "@@ -1 +1,2 @@\n"
    " # app\n"
    "+More text.\n"
    "diff --git a/requirements.txt b/requirements.txt\n"
    "new file mode 100644\n"
    "index 0000000..5555555\n"
    "--- /dev/null\n"
    "+++ b/requirements.txt\n"
    "@@ -0,0 +1 @@\n"
    "+requests==2.32.3\n";

struct Run {
  test::TempDir out;
  std::ostringstream log;
  int status = -1;
  json::array findings;
};

void run(SecurityBridge& bridge, const json::object& params, Run& r, const std::string& event = "") {
  agents::AgentContext ctx{bridge, params, r.out.root, r.out.root, r.log};
  r.status = agents::runSecurityAgentWithEvent(ctx, event);
  Result<std::string> text = readBoundedFile((r.out.root / "findings.json").string(), 1 << 20, ErrorCode::IoError);
  if (text) r.findings = json::parse(*text).at("findings").as_array();
}

SecurityBridge scripted() {
  SecurityBridge b;
  b.diff = kDiff;
  b.files = {{".github/workflows/t.yml", kWorkflow}, {"requirements.txt", "requests==2.32.3\n"}};
  return b;
}

std::vector<std::string> located(const json::array& findings) {
  std::vector<std::string> out;
  for (const json::value& f : findings)
    out.push_back(std::string(f.at("path").as_string()) + ":" + std::to_string(f.at("line").as_int64()) + " " +
                  std::string(f.at("ruleId").as_string()) + " " + std::string(f.at("severity").as_string()));
  return out;
}

}  // namespace

TEST_CASE("security agent: reads the diff and the files its rules need at head, and writes findings.json") {
  SecurityBridge bridge = scripted();
  Run r;
  run(bridge, {}, r);
  CHECK(r.status == 0);
  CHECK(located(r.findings) == std::vector<std::string>{
                                   ".github/workflows/t.yml:7 security/expression-injection error",
                                   ".github/workflows/t.yml:6 security/unpinned-action warning",
                                   "requirements.txt:1 security/new-dependency notice",
                               });
  // README.md has no rule that reads it whole: only the diff's lines are scanned.
  CHECK(bridge.calls == std::vector<std::string>{
                            "github.pulls.diff {}",
                            "github.file {\"path\":\".github/workflows/t.yml\",\"ref\":\"head\"}",
                            "github.file {\"path\":\"requirements.txt\",\"ref\":\"head\"}",
                        });
  CHECK(r.log.str().find("3 changed files, 3 findings") != std::string::npos);
}

TEST_CASE("security agent: the log says which files were scanned, by kind, and which rules ran") {
  SecurityBridge bridge = scripted();
  const std::vector<agents::security::RuleInfo>& rules = agents::security::allRules();
  std::size_t later = std::count_if(rules.begin(), rules.end(), [](const agents::security::RuleInfo& r) {
    return r.persona != agents::security::Persona::Default;
  });
  REQUIRE(later > 0);
  std::string total = std::to_string(rules.size());
  Run all, some, auditor;
  run(bridge, {}, all);
  CHECK(
      all.log.str().find("builtin/security: scanned: 1 workflow, 1 manifest, 1 other (added lines only); rules run: " +
                         std::to_string(rules.size() - later) + " of " + total + " (" + std::to_string(later) +
                         " of personas after default left out)\n") != std::string::npos);
  run(bridge, {{"disable", json::array{"security/new-dependency"}}}, some);
  CHECK(some.log.str().find(
            "; rules run: " + std::to_string(rules.size() - later - 1) + " of " + total + " (" + std::to_string(later) +
            " of personas after default left out), not security/new-dependency\n") != std::string::npos);
  run(bridge, {{"persona", "auditor"}}, auditor);
  CHECK(auditor.log.str().find("; rules run: " + total + " of " + total + "\n") != std::string::npos);
}

TEST_CASE("security agent: with: parameters are honoured") {
  SecurityBridge bridge = scripted();
  SUBCASE("minSeverity") {
    Run r;
    run(bridge, {{"minSeverity", "error"}}, r);
    CHECK(located(r.findings) ==
          std::vector<std::string>{".github/workflows/t.yml:7 security/expression-injection error"});
  }
  SUBCASE("disable and dependencies") {
    Run r;
    run(bridge, {{"disable", json::array{"security/expression-injection"}}, {"dependencies", false}}, r);
    CHECK(located(r.findings) ==
          std::vector<std::string>{".github/workflows/t.yml:6 security/unpinned-action warning"});
  }
  SUBCASE("maxFindings") {
    Run r;
    run(bridge, {{"maxFindings", 2}}, r);
    CHECK(r.findings.size() == 2);
  }
  SUBCASE("a parameter of the wrong type fails the step before any call") {
    Run r;
    run(bridge, {{"maxFindings", "many"}}, r);
    CHECK(r.status == 1);
    CHECK(bridge.calls.empty());
    CHECK(r.log.str().find("TASKPACK_INVALID: builtin/security: with.maxFindings must be an integer from 1 to 1000") !=
          std::string::npos);
  }
}

TEST_CASE("security agent: a tool error fails the step with the tool and its message") {
  SecurityBridge bridge = scripted();
  SUBCASE("the diff") {
    bridge.diffError = makeError(ErrorCode::BreakerOpen, "circuit breaker open for github reads");
    Run r;
    run(bridge, {}, r);
    CHECK(r.status == 1);
    CHECK(r.log.str().find("BREAKER_OPEN: github.pulls.diff: circuit breaker open for github reads") !=
          std::string::npos);
    CHECK(r.findings.empty());
  }
  SUBCASE("a file") {
    bridge.files.erase("requirements.txt");
    Run r;
    run(bridge, {}, r);
    CHECK(r.status == 1);
    CHECK(r.log.str().find("github.file requirements.txt: not found") != std::string::npos);
  }
  SUBCASE("a diff that does not parse") {
    bridge.diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -bad @@\n+x\n";
    Run r;
    run(bridge, {}, r);
    CHECK(r.status == 1);
    CHECK(r.log.str().find("OUTPUT_INVALID: github.pulls.diff:") != std::string::npos);
  }
}

TEST_CASE("security agent: the repository's owner comes from the event payload") {
  SecurityBridge bridge;
  const char* wf =
      "on: push\njobs:\n  d:\n    uses: acme/shared/.github/workflows/d.yml@8f4b7f84864484a7bf31766abe9204da3cbe65b3\n"
      "    secrets: inherit\npermissions: {}\n";
  bridge.files = {{".github/workflows/d.yml", wf}};
  bridge.diff =
      "diff --git a/.github/workflows/d.yml b/.github/workflows/d.yml\nnew file mode 100644\n--- /dev/null\n"
      "+++ b/.github/workflows/d.yml\n@@ -0,0 +1,6 @@\n+on: push\n+jobs:\n+  d:\n"
      "+    uses: acme/shared/.github/workflows/d.yml@8f4b7f84864484a7bf31766abe9204da3cbe65b3\n+    secrets: "
      "inherit\n+permissions: {}\n";
  test::TempDir dir;
  Run other, own;
  run(bridge, {}, other, dir.write("other.json", R"({"repository": {"owner": {"login": "someone-else"}}})"));
  run(bridge, {}, own, dir.write("own.json", R"({"repository": {"owner": {"login": "ACME"}}})"));
  CHECK(located(other.findings) ==
        std::vector<std::string>{".github/workflows/d.yml:5 security/secrets-inherit warning"});
  CHECK(own.findings.empty());
}

namespace {

// coverage.json as the step wrote it, or null when it wrote none.
json::value coverageOf(const Run& r) {
  Result<std::string> text = readBoundedFile((r.out.root / "coverage.json").string(), 1 << 20, ErrorCode::IoError);
  return text ? json::parse(*text) : json::value(nullptr);
}

// A pull request that adds one line (line 5, `steps:` a space short) to a
// workflow that runs the pull request's title on pull_request_target.
const char* kBrokenWorkflow =
    "on: pull_request_target\n"
    "jobs:\n"
    "  t:\n"
    "    runs-on: ubuntu-latest\n"
    "   steps:\n"
    "      - run: echo \"${{ github.event.pull_request.title }}\"\n";

const char* kBrokenDiff =
    "diff --git a/.github/workflows/t.yml b/.github/workflows/t.yml\n"
    "index 1111111..2222222 100644\n"
    "--- a/.github/workflows/t.yml\n"
    "+++ b/.github/workflows/t.yml\n"
    "@@ -4,2 +4,3 @@ jobs:\n"
    "     runs-on: ubuntu-latest\n"
    "+   steps:\n"
    "       - run: echo \"${{ github.event.pull_request.title }}\"\n";

}  // namespace

TEST_CASE(
    "security agent: a changed workflow that does not parse is a finding on its diff line and skipped in "
    "coverage.json") {
  SecurityBridge bridge;
  bridge.diff = kBrokenDiff;
  bridge.files = {{".github/workflows/t.yml", kBrokenWorkflow}};
  Run r;
  run(bridge, {}, r);
  CHECK(r.status == 0);
  REQUIRE(located(r.findings) ==
          std::vector<std::string>{".github/workflows/t.yml:5 security/unparsed-workflow error"});
  CHECK(
      std::string(r.findings[0].at("message").as_string())
          .starts_with("This workflow file cannot be read (line 5, column 4: YAML syntax error: end of map not found), "
                       "so none of the workflow rules were checked on it. (confidence: high)\n\n"));
  json::value coverage = coverageOf(r);
  REQUIRE(coverage.is_object());
  CHECK(coverage.at("complete") == false);
  CHECK(coverage.at("reason") ==
        "1 workflow, action or configuration file(s) could not be read, so their rules were not checked");
  CHECK(coverage.at("files") == json::parse(R"([{"path": ".github/workflows/t.yml", "status": "skipped",
                         "reason": "not checked: line 5, column 4: YAML syntax error: end of map not found"}])"));
  CHECK(r.log.str().find("1 changed files, 1 findings, 1 workflow file(s) not checked") != std::string::npos);
}

TEST_CASE("security agent: a workflow github.file cuts short is reported, and nothing of it is checked in part") {
  SecurityBridge bridge = scripted();
  bridge.truncatedFiles = {".github/workflows/t.yml"};
  Run r;
  run(bridge, {}, r);
  CHECK(located(r.findings) == std::vector<std::string>{".github/workflows/t.yml:7 security/unparsed-workflow error",
                                                        "requirements.txt:1 security/new-dependency notice"});
  json::value coverage = coverageOf(r);
  REQUIRE(coverage.is_object());
  CHECK(coverage.at("files").at(0).at("reason") ==
        "not checked: line 7: is cut short by github.file's 1 MiB bound after 157 bytes");
}

TEST_CASE("security agent: when every workflow parses, no coverage.json is written") {
  SecurityBridge bridge = scripted();
  Run r;
  run(bridge, {}, r);
  CHECK(r.status == 0);
  CHECK(r.findings.size() == 3);
  CHECK(coverageOf(r).is_null());
}
