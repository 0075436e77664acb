#include <map>
#include <sstream>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "agents/triage/triage_agent.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::agents;
namespace json = boost::json;

namespace {

// Answers each tool from a table (an Error when the tool maps to one) and
// records every call.
class ScriptedBridge final : public BridgeClient {
 public:
  Result<json::value> call(const std::string& tool, const json::object& args) override {
    calls.push_back({tool, args});
    if (auto e = errors.find(tool); e != errors.end()) return makeError(ErrorCode::UsageError, e->second);
    if (auto a = answers.find(tool); a != answers.end()) return a->second;
    return makeError(ErrorCode::UsageError, "tool " + tool + " is not granted to this step");
  }
  std::size_t count(const std::string& tool) const {
    std::size_t n = 0;
    for (const auto& c : calls) n += c.first == tool;
    return n;
  }
  std::map<std::string, json::value> answers;
  std::map<std::string, std::string> errors;
  std::vector<std::pair<std::string, json::object>> calls;
};

const char* kBugForm = R"(name: Bug report
body:
  - type: input
    attributes:
      label: Version
    validations:
      required: true
  - type: textarea
    attributes:
      label: Steps to reproduce
    validations:
      required: true
)";

json::value issueAnswer() {
  return json::parse(R"({"number": 40, "title": "Crash when parsing an empty YAML taskpack",
    "body": "### Version\n\n_No response_\n\n### Steps to reproduce\n\nRun loopwright validate on an empty taskpack.yaml: the YAML parser crashes with a segfault.",
    "author": "alice", "authorAssociation": "NONE", "state": "open", "labels": ["triage"], "comments": [], "commentsTruncated": false})");
}

json::value labelsAnswer() {
  return json::parse(R"({"labels": [{"name": "bug", "description": "Something isn't working", "color": "d73a4a"},
    {"name": "documentation", "description": "Improvements or additions to documentation", "color": "0075ca"},
    {"name": "triage", "description": "", "color": "ededed"}]})");
}

json::value searchAnswer() {
  return json::parse(R"({"total": 3, "items": [
    {"number": 40, "title": "Crash when parsing an empty YAML taskpack", "body": "itself", "state": "open", "labels": [], "url": "u"},
    {"number": 7, "title": "Segfault on empty taskpack.yaml", "body": "validate crashes when taskpack.yaml is empty; the YAML parser segfaults", "state": "closed", "labels": [], "url": "u"},
    {"number": 12, "title": "README install section outdated", "body": "mentions an old Debian release", "state": "open", "labels": [], "url": "u"}]})");
}

json::object defaults() {
  return json::object{
      {"duplicateThreshold", 0.5}, {"maxDuplicates", 3}, {"labels", true}, {"useModel", false}, {"checkForms", true}};
}

struct Run {
  test::TempDir workspace, out;
  ScriptedBridge bridge;
  std::ostringstream log;
  json::object params = defaults();

  Run() {
    workspace.write(".github/ISSUE_TEMPLATE/bug.yml", kBugForm);
    bridge.answers["github.issue"] = issueAnswer();
    bridge.answers["github.labels"] = labelsAnswer();
    bridge.answers["github.issues.search"] = searchAnswer();
  }
  int go() {
    AgentContext ctx{bridge, params, workspace.root, out.root, log};
    return runTriageAgent(ctx);
  }
  json::object triage() const {
    std::ifstream in(out.root / "triage.json");
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str()).as_object();
  }
};

}  // namespace

TEST_CASE("triage agent: labels from the repository, the true duplicate with its score, the missing form field") {
  Run r;
  REQUIRE(r.go() == 0);
  json::object t = r.triage();
  CHECK(t.at("labels") == json::parse(R"(["triage", "bug"])"));
  json::array dups = t.at("duplicates").as_array();
  REQUIRE(dups.size() == 1);
  CHECK(dups[0].at("number") == 7);
  const std::string reason(dups[0].at("reason").as_string());
  CHECK(reason.rfind("similar title and description (score 0.", 0) == 0);
  CHECK(t.at("complete") == false);
  CHECK(std::string(t.at("comment").as_string()) ==
        "**Missing information** (required by the *Bug report* form): **Version**. Please edit the issue to add it.\n");
  // The query was built from the issue's words and scoped to issues.
  REQUIRE(r.bridge.count("github.issues.search") >= 1);
  const std::string query(r.bridge.calls[2].second.at("query").as_string());
  CHECK(query.find("taskpack") != std::string::npos);
  CHECK(query.find(" is:issue") != std::string::npos);
  CHECK(r.bridge.count("model.complete") == 0);
}

TEST_CASE("triage agent: with useModel the lane chooses, invented labels are dropped and logged") {
  Run r;
  r.params["useModel"] = true;
  r.bridge.answers["model.complete"] = json::object{
      {"text", "[\"documentation\", \"P0-critical\", \"security\"]"}, {"model", "m"}, {"stopReason", "end"}};
  REQUIRE(r.go() == 0);
  CHECK(r.triage().at("labels") == json::parse(R"(["triage", "documentation"])"));
  CHECK(r.log.str().find("dropped 'P0-critical': not a label of this repository") != std::string::npos);
  CHECK(r.log.str().find("dropped 'security'") != std::string::npos);
  // The prompt listed the real labels only.
  const auto& args = r.bridge.calls[2].second;
  CHECK(json::serialize(args.at("messages")).find("- documentation: Improvements") != std::string::npos);
}

TEST_CASE("triage agent: a model that fails or answers prose falls back to matching") {
  Run r;
  r.params["useModel"] = true;
  SUBCASE("down") { r.bridge.errors["model.complete"] = "BREAKER_OPEN: lane default"; }
  SUBCASE("prose") { r.bridge.answers["model.complete"] = json::object{{"text", "I think it is a bug."}}; }
  REQUIRE(r.go() == 0);
  CHECK(r.triage().at("labels") == json::parse(R"(["triage", "bug"])"));
  CHECK(r.log.str().find("labels chosen by matching") != std::string::npos);
}

TEST_CASE("triage agent: failing labels or search are left out, an unreadable issue fails the step") {
  Run r;
  r.bridge.errors["github.labels"] = "403 Resource not accessible";
  r.bridge.errors["github.issues.search"] = "rate limited";
  REQUIRE(r.go() == 0);
  json::object t = r.triage();
  CHECK(t.at("labels") == json::parse(R"(["triage"])"));
  CHECK(t.at("duplicates").as_array().empty());
  CHECK(r.log.str().find("github.issues.search failed (rate limited)") != std::string::npos);

  Run broken;
  broken.bridge.errors["github.issue"] = "not found";
  CHECK(broken.go() == 1);
  CHECK_FALSE(std::filesystem::exists(broken.out.root / "triage.json"));
  CHECK(broken.log.str().find("cannot read the issue: not found") != std::string::npos);
}

TEST_CASE("triage agent: parameters switch parts off, bad ones stop the step") {
  Run r;
  r.params["labels"] = false;
  r.params["maxDuplicates"] = 0;
  r.params["checkForms"] = false;
  REQUIRE(r.go() == 0);
  json::object t = r.triage();
  CHECK(t.at("labels") == json::parse(R"(["triage"])"));
  CHECK(t.at("duplicates").as_array().empty());
  CHECK_FALSE(t.contains("complete"));
  CHECK_FALSE(t.contains("comment"));
  CHECK(r.bridge.count("github.labels") == 0);
  CHECK(r.bridge.count("github.issues.search") == 0);

  Run bad;
  bad.params["duplicateThreshold"] = "high";
  CHECK(bad.go() == 2);
  CHECK(bad.log.str().find("with.duplicateThreshold must be a number from 0 to 1") != std::string::npos);
}

TEST_CASE("triage agent: an issue that follows no form is told which forms there are") {
  Run r;
  json::value plain = issueAnswer();
  plain.as_object()["body"] = "It crashes.";
  r.bridge.answers["github.issue"] = plain;
  REQUIRE(r.go() == 0);
  json::object t = r.triage();
  CHECK_FALSE(t.contains("complete"));
  CHECK(std::string(t.at("comment").as_string()).find("does not follow the repository's issue forms (*Bug report*)") !=
        std::string::npos);
}
