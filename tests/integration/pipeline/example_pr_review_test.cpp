// examples/pr-review end to end, as a repository that adds the action gets
// it: three built-in steps of three lines each (builtin/security,
// builtin/lint running shellcheck, builtin/review on a model lane), run by
// `loopwright run --publish github` in real sandboxes against the local
// GitHub server and the local model server (answered by the demo's
// stand-in reviewer). The findings land inline on the lines they are about,
// with a check run and a step summary listing what the review covered.
#include <doctest/doctest.h>

#include <set>

#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/demo_reviewer.h"
#include "support/fake_github.h"
#include "support/fake_model.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const std::string kExample = std::string(LOOPWRIGHT_SOURCE_DIR) + "/examples/pr-review";

// "path:line rule" of every inline review comment.
std::set<std::string> inlineComments(const FakeGithub& github) {
  std::set<std::string> out;
  for (const json::value& c : github.reviewComments(1)) {
    std::string body(c.at("body").as_string());
    auto tick = body.find('`');
    std::string rule = body.substr(tick + 1, body.find('`', tick + 1) - tick - 1);
    out.insert(std::string(c.at("path").as_string()) + ":" + std::to_string(c.at("line").to_number<int>()) + " " +
               rule);
  }
  return out;
}

// The example's repository on the fake GitHub, its lane on the fake model.
struct PrReview {
  Scratch s;
  FakeGithub github;
  FakeModel model;
  fs::path repo = s.root / "repo";
  std::string head;
  std::map<std::string, std::string> env = hostEnv(s.root);

  PrReview() {
    model.respondWith(demoReviewerAnswer);
    REQUIRE(sh(kExample + "/make-repo.sh " + repo.string() + " " + model.url()) == 0);
    head = capture("git -C '" + repo.string() + "' rev-parse HEAD");
    head.pop_back();
    github.addPull(1, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
    env["GITHUB_API_URL"] = github.url();
    env["GITHUB_TOKEN"] = FakeGithub::kToken;
    env["GITHUB_REPOSITORY"] = "octo/hello";
    env["OPENAI_API_KEY"] = "sk-test-key";
    env["GITHUB_STEP_SUMMARY"] = (s.root / "summary.md").string();
  }

  CliRun run(const fs::path& event, const std::string& out) {
    return runCli({"run", "--repo", repo.string(), "--event-name", "pull_request", "--event-path", event.string(),
                   "--out", (s.root / out).string(), "--publish", "github"},
                  env);
  }
};

void requireHost() {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  LW_REQUIRE_HOST(sh("command -v shellcheck >/dev/null") == 0, "shellcheck is not installed");
}

}  // namespace

TEST_CASE(
    "examples/pr-review: security, lint and review built-ins publish inline findings on the right lines, a check run "
    "and the coverage") {
  requireHost();
  PrReview pr;
  auto& [s, github, model, repo, head, env] = pr;
  auto r = pr.run(repo.string() + ".event.json", "out");
  INFO(r.out << r.err);
  CHECK(r.status == 1);  // error findings at the taskpack's failOn: error

  auto comments = inlineComments(github);
  for (const char* expected : {
           ".github/workflows/greet.yml:11 security/expression-injection",
           ".github/workflows/greet.yml:12 security/unpinned-action",
           "scripts/install.sh:5 security/curl-pipe-shell",
           "requirements.txt:2 security/new-dependency",
           "scripts/install.sh:6 lint/ShellCheck.SC2086",
           "src/greet.py:8 review/eval-of-input",
           "src/greet.py:9 review/bare-except",
       })
    CHECK_MESSAGE(comments.count(expected) == 1, expected);
  CHECK(github.reviews(1).size() == 1);
  REQUIRE(github.checkRuns().size() == 1);
  CHECK(github.checkRuns()[0].at("conclusion") == "failure");

  // The review went through the lane: the key stayed with the orchestrator.
  REQUIRE(model.count() >= 1);
  CHECK(model.requests()[0].headers.at("authorization") == "Bearer sk-test-key");
  std::string summary = readFile(s.root / "summary.md");
  CHECK(summary.find("src/greet.py") != std::string::npos);
  CHECK(summary.find("reviewed") != std::string::npos);
  auto run = runJson(s.root / "out");
  for (const char* step : {"security", "shellcheck", "review"}) {
    auto rec = stepOf(run, step);
    CHECK_MESSAGE(rec.at("outcome") == "passed", step);
    CHECK_MESSAGE(rec.at("verification").at("result") == "passed", step);
  }

  SUBCASE("a synchronize after a one-line change reviews only that change and posts nothing twice") {
    std::string before = head;
    REQUIRE(sh("cd '" + repo.string() +
               "' && sed -i 's/name = \"world\"/name = eval(\"\\x27world\\x27\")/' src/greet.py && "
               "git -c user.name=e -c user.email=e@invalid commit -qam 'Default name' ") == 0);
    head = capture("git -C '" + repo.string() + "' rev-parse HEAD");
    head.pop_back();
    github.addPull(1, head, capture("git -C '" + repo.string() + "' diff HEAD~2 HEAD"));
    std::string event = readFile(repo.string() + ".event.json");
    event.replace(event.find("\"opened\""), 8, "\"synchronize\"");
    event.replace(event.find(before), before.size(), head);
    writeFile(s.root / "sync.json", event);
    std::size_t modelCallsBefore = model.count();
    auto commentsBefore = github.reviewComments(1).size();

    auto again = pr.run(s.root / "sync.json", "out2");
    INFO(again.out << again.err);
    auto run2 = runJson(s.root / "out2");
    auto review = stepOf(run2, "review");
    CHECK(review.at("outcome") == "passed");
    // Only the new commit went to the model: one request, holding the
    // changed line with its context and nothing further from it.
    REQUIRE(model.count() == modelCallsBefore + 1);
    std::string prompt = model.requests().back().body;
    CHECK(prompt.find("eval(\\\"'world'\\\")") != std::string::npos);
    CHECK(prompt.find("return (\\\"hello") == std::string::npos);  // line 11, past the hunk
    CHECK(prompt.find("install.sh") == std::string::npos);
    // The new finding is posted once; nothing posted before is posted again.
    auto now = inlineComments(github);
    CHECK(now.count("src/greet.py:6 review/eval-of-input") == 1);
    CHECK(github.reviewComments(1).size() == commentsBefore + 1);
    // Findings on lines the new commit did not touch are not "resolved".
    for (const json::value& c : github.reviewComments(1))
      CHECK_MESSAGE(std::string(c.at("body").as_string()).find("esolved") == std::string::npos,
                    c.at("body").as_string());
  }
}

TEST_CASE(
    "examples/pr-review: a model that is down ends the review with a failing check that names why, never a silent "
    "green") {
  requireHost();
  PrReview pr;
  pr.model.script(FakeModel::Reply::withStatus(503), 100);
  auto r = pr.run(pr.repo.string() + ".event.json", "out");
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  auto review = stepOf(runJson(pr.s.root / "out"), "review");
  CHECK(review.at("outcome") != "passed");
  CHECK_FALSE(review.at("coverage").at("complete").as_bool());
  auto runs = pr.github.checkRuns();
  REQUIRE(runs.size() == 1);
  const auto& check = runs[0];
  CHECK(check.at("conclusion") == "failure");
  std::string title(check.at("output").at("title").as_string());
  CHECK_MESSAGE(title.find("review") != std::string::npos, title);
  // The deterministic steps still published what they found.
  CHECK(inlineComments(pr.github).count(".github/workflows/greet.yml:11 security/expression-injection") == 1);
}
