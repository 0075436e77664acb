// builtin/triage end to end: `loopwright run --publish github` on an issues
// event, the agent in a bwrap sandbox reading the issue, the labels and the
// search through its bridge (served by the fake GitHub's REST endpoints),
// the issue form from the checkout; the publisher's labels and sticky
// comment on the fake, with the step-written text neutralised.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"
#include "support/fake_github_reads.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const char* kBugForm = R"(name: Bug report
body:
  - type: input
    attributes:
      label: Version
    validations:
      required: true
  - type: textarea
    attributes:
      label: What happened?
    validations:
      required: true
)";

const char* kIssueBody =
    "### Version\n\n_No response_\n\n### What happened?\n\n"
    "loopwright validate crashes with a segfault on an empty taskpack.yaml; the YAML parser dies.";

json::object issueObject() {
  return json::object{{"number", 12},
                      {"title", "Segfault when the taskpack.yaml is empty"},
                      {"body", kIssueBody},
                      {"state", "open"},
                      {"user", json::object{{"login", "mona"}}},
                      {"author_association", "NONE"},
                      {"labels", json::array{}},
                      {"comments", 0}};
}

json::object searchItem(int number, const std::string& title, const std::string& body) {
  return json::object{{"number", number},
                      {"title", title},
                      {"body", body},
                      {"state", "closed"},
                      {"labels", json::array{}},
                      {"html_url", "https://github.com/octo/hello/issues/" + std::to_string(number)}};
}

}  // namespace

TEST_CASE("builtin triage: run --publish github labels the issue, names the duplicate and the missing field, defused") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack("    - name: triage\n      on: [issues]\n      steps:\n"
                                                         "        - {name: triage, uses: builtin/triage}\n",
                                                         "  sandbox: {preferredBackends: [linux-bwrap]}\n")},
                  {".github/ISSUE_TEMPLATE/bug.yml", kBugForm}});
  writeFile(s.root / "event.json",
            json::serialize(json::object{{"action", "opened"},
                                         {"issue", issueObject()},
                                         {"repository", json::object{{"name", "hello"},
                                                                     {"full_name", "octo/hello"},
                                                                     {"owner", json::object{{"login", "octo"}}}}},
                                         {"sender", json::object{{"login", "mona"}}}}));

  FakeGithub github;
  github.reads().issues[12] = issueObject();
  // A candidate written by someone hostile: its title reaches the comment.
  github.reads().searchItems =
      json::array{searchItem(12, "Segfault when the taskpack.yaml is empty", kIssueBody),
                  searchItem(7, "Segfault on an empty taskpack.yaml @maintainer <img src=x>",
                             "validate crashes with a segfault when taskpack.yaml is empty: the YAML parser"),
                  searchItem(3, "Document the lanes", "The README should explain model lanes.")};
  auto env = hostEnv(s.root);
  env["GITHUB_API_URL"] = github.url();
  env["GITHUB_TOKEN"] = FakeGithub::kToken;
  env["GITHUB_STEP_SUMMARY"] = (s.root / "summary.md").string();
  env["RUNNER_TEMP"] = (s.root / "runner-temp").string();
  fs::create_directories(s.root / "runner-temp");
  auto r = runCli({"run", "--repo", repo.string(), "--event-name", "issues", "--event-path",
                   (s.root / "event.json").string(), "--out", (s.root / "out").string(), "--publish", "github"},
                  env);
  INFO(r.out << r.err);
  INFO(readFile(s.root / "out/steps/triage/triage/stderr.log"));
  auto step = stepOf(runJson(s.root / "out"), "triage");
  REQUIRE_FALSE(step.empty());
  CHECK(step.at("outcome") == "passed");
  CHECK(step.at("toolCalls").as_int64() >= 3);  // github.issue, github.labels, github.issues.search
  CHECK(r.status == 0);

  CHECK(github.issueLabels(12) == std::vector<std::string>{"bug"});
  json::array comments = github.issueComments(12);
  REQUIRE(comments.size() == 1);
  const std::string body(comments[0].at("body").as_string());
  CHECK(body.find("- #7: similar title and description (score 0.") != std::string::npos);
  CHECK(body.find("#3") == std::string::npos);
  CHECK(body.find("**Complete:** no") != std::string::npos);
  CHECK(body.find("required by the *Bug report* form): **Version**") != std::string::npos);
  CHECK(body.find("@maintainer") == std::string::npos);
  CHECK(body.find("@\xE2\x81\xA0maintainer \\<img src=x\\>") != std::string::npos);
  CHECK(github.reads().searchQueries.at(0).find("repo:octo/hello") == 0);
}
