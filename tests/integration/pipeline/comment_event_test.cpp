// `loopwright run --publish github` on an issue_comment on a pull request:
// the payload names the pull request but not its commits, which are read
// from the API before the run, so the review lands on the current head.
// Before, the publication failed ("no head commit") and stayed in the
// outbox for every later run to retry.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "cli/pull_event.h"
#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const char* kTaskpack = R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: on-comment}
spec:
  sandbox: {preferredBackends: [linux-bwrap]}
  stages:
    - name: review
      on: [issue_comment.created]
      steps:
        - name: flag
          run: [sh, -c, 'printf "%s" "{\"findings\":[{\"ruleId\":\"x/y\",\"severity\":\"warning\",\"message\":\"look here\",\"path\":\"src/a.py\",\"line\":2}]}" > "$LOOPWRIGHT_OUT/findings.json"']
)";

json::object commentEvent() {
  return {{"action", "created"},
          {"issue",
           json::object{{"number", 5},
                        {"title", "Add a.py"},
                        {"author_association", "CONTRIBUTOR"},
                        {"labels", json::array{}},
                        {"pull_request", json::object{{"url", "https://api.github.com/repos/octo/hello/pulls/5"}}}}},
          {"comment", json::object{{"body", "LGTM, please take a look"}, {"author_association", "MEMBER"}}},
          {"repository",
           json::object{{"name", "hello"}, {"full_name", "octo/hello"}, {"owner", json::object{{"login", "octo"}}}}},
          {"sender", json::object{{"login", "mona"}}}};
}

}  // namespace

TEST_CASE("pull event: an issue_comment on a pull request needs its commits, a pull_request event does not") {
  lw::github::GithubEvent e;
  e.isPullRequest = true;
  e.number = 5;
  CHECK(lw::cli::needsPullLookup(e));
  lw::cli::applyPull(e, {"h", "b", true, "forker/hello"});
  CHECK_FALSE(lw::cli::needsPullLookup(e));
  CHECK(e.headSha == "h");
  CHECK(e.baseSha == "b");
  CHECK(e.fromFork);
  lw::github::GithubEvent issue;
  issue.number = 3;
  CHECK_FALSE(lw::cli::needsPullLookup(issue));
}

TEST_CASE("run --publish github: an issue_comment on a pull request is reviewed on the pull request's head") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", kTaskpack}, {"README.md", "hello\n"}});
  REQUIRE(sh("cd '" + repo.string() +
             "' && printf 'x = 1\\ny = 2\\n' > src_a && mkdir -p src && mv src_a src/a.py && "
             "git add -A && git -c user.name=e -c user.email=e@invalid commit -qm pr") == 0);
  std::string head = capture("git -C '" + repo.string() + "' rev-parse HEAD");
  head.pop_back();
  FakeGithub github;
  github.addPull(5, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
  writeFile(s.root / "event.json", json::serialize(commentEvent()));

  auto env = hostEnv(s.root);
  env["GITHUB_API_URL"] = github.url();
  env["GITHUB_TOKEN"] = FakeGithub::kToken;
  env["RUNNER_TEMP"] = (s.root / "runner-temp").string();
  fs::create_directories(s.root / "runner-temp");
  auto r = runCli({"run", "--repo", repo.string(), "--event-name", "issue_comment", "--event-path",
                   (s.root / "event.json").string(), "--out", (s.root / "out").string(), "--publish", "github"},
                  env);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto reviews = github.reviews(5);
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].at("commit_id").as_string() == head);
  auto comments = github.reviewComments(5);
  REQUIRE(comments.size() == 1);
  CHECK(comments[0].at("path") == "src/a.py");
  CHECK(comments[0].at("line") == 2);

  SUBCASE("without a token the run says what it needs") {
    env.erase("GITHUB_TOKEN");
    auto n = runCli({"run", "--repo", repo.string(), "--event-name", "issue_comment", "--event-path",
                     (s.root / "event.json").string(), "--out", (s.root / "out2").string()},
                    env);
    CHECK(n.status == 2);
    CHECK(n.err.find("does not name the pull request's commits") != std::string::npos);
    CHECK(n.err.find("GITHUB_TOKEN") != std::string::npos);
  }
}
