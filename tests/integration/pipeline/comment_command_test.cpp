// `/loopwright review` and `/loopwright triage` in an issue comment
// (docs/comment-commands.md): the command's stages run only when the
// commenter has write access, read from GET collaborators/{login}/permission;
// a review runs on the pull request's current head. Other comments select
// the stages on issue_comment, as before.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

// A finding on the pull request's file, from the stage on pull_request; a
// marker file from the stage on issues.
const char* kTaskpack = R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: commands}
spec:
  sandbox: {preferredBackends: [linux-bwrap]}
  stages:
    - name: review
      on: [pull_request.opened, pull_request.synchronize]
      steps:
        - name: flag
          run: [sh, -c, 'printf "%s" "{\"findings\":[{\"ruleId\":\"x/y\",\"severity\":\"warning\",\"message\":\"look here\",\"path\":\"src/a.py\",\"line\":2}]}" > "$LOOPWRIGHT_OUT/findings.json"']
    - name: triage
      on: [issues.opened]
      steps:
        - name: sort
          run: [sh, -c, 'true']
    - name: chat
      on: [issue_comment.created]
      steps:
        - name: answer
          run: [sh, -c, 'true']
)";

json::object commentEvent(const std::string& body, const std::string& login, bool onPull) {
  json::object issue{
      {"number", 5}, {"title", "Add a.py"}, {"author_association", "CONTRIBUTOR"}, {"labels", json::array{}}};
  if (onPull) issue["pull_request"] = json::object{{"url", "https://api.github.com/repos/octo/hello/pulls/5"}};
  return {
      {"action", "created"},
      {"issue", issue},
      {"comment",
       json::object{{"body", body}, {"author_association", "CONTRIBUTOR"}, {"user", json::object{{"login", login}}}}},
      {"repository",
       json::object{{"name", "hello"}, {"full_name", "octo/hello"}, {"owner", json::object{{"login", "octo"}}}}},
      {"sender", json::object{{"login", login}}}};
}

struct CommentRig {
  Scratch s;
  fs::path repo = s.root / "repo";
  std::string head;
  FakeGithub github;
  std::map<std::string, std::string> env;

  CommentRig() {
    makeRepo(repo, {{".loopwright/taskpack.yaml", kTaskpack}, {"README.md", "hello\n"}});
    REQUIRE(sh("cd '" + repo.string() +
               "' && mkdir -p src && printf 'x = 1\\ny = 2\\n' > src/a.py && "
               "git add -A && git -c user.name=e -c user.email=e@invalid commit -qm pr") == 0);
    head = capture("git -C '" + repo.string() + "' rev-parse HEAD");
    head.pop_back();
    github.addPull(5, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
    env = hostEnv(s.root);
    env["GITHUB_API_URL"] = github.url();
    env["GITHUB_TOKEN"] = FakeGithub::kToken;
    env["RUNNER_TEMP"] = (s.root / "runner-temp").string();
    env["GITHUB_STEP_SUMMARY"] = (s.root / "summary.md").string();
    fs::create_directories(s.root / "runner-temp");
  }

  CliRun comment(const std::string& body, const std::string& login, bool onPull = true) {
    writeFile(s.root / "event.json", json::serialize(commentEvent(body, login, onPull)));
    return runCli({"run", "--repo", repo.string(), "--event-name", "issue_comment", "--event-path",
                   (s.root / "event.json").string(), "--out", (s.root / "out").string(), "--publish", "github"},
                  env);
  }

  std::vector<std::string> ranStages() {
    std::vector<std::string> out;
    const json::value run = runJson(s.root / "out");
    for (const auto& stage : run.at("stages").as_array()) out.emplace_back(stage.at("name").as_string());
    return out;
  }
};

}  // namespace

TEST_CASE("comment command: /loopwright review from a writer runs the pull_request stages on the current head") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  CommentRig rig;
  const char* role = nullptr;
  SUBCASE("write") { role = "write"; }
  SUBCASE("maintain") { role = "maintain"; }
  SUBCASE("admin") { role = "admin"; }
  rig.github.setPermission("mona", role);
  auto r = rig.comment("/loopwright review", "mona");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(rig.ranStages() == std::vector<std::string>{"review"});
  CHECK(rig.github.count("GET", "/collaborators/mona/permission") == 1);
  auto reviews = rig.github.reviews(5);
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].at("commit_id").as_string() == rig.head);
}

TEST_CASE("comment command: /loopwright review from someone without write access runs nothing and says why") {
  CommentRig rig;
  std::string login, permission;
  SUBCASE("triage") {
    login = "helper";
    permission = "read";  // GitHub's legacy field for triage
    rig.github.setPermission(login, "triage");
  }
  SUBCASE("read") {
    login = "reader";
    permission = "read";
    rig.github.setPermission(login, "read");
  }
  SUBCASE("not a collaborator (404)") {
    login = "stranger";
    permission = "none";
  }
  auto r = rig.comment("/loopwright review", login);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  const std::string notice = "`/loopwright review` from @" + login +
                             " was not run: their permission on octo/hello is '" + permission +
                             "' (write, maintain or admin may run commands)";
  CHECK(r.out.find("::notice title=loopwright: command not run::" + notice) != std::string::npos);
  CHECK(readFile(rig.s.root / "summary.md") == "> **Note:** " + notice + "\n\n");
  CHECK_FALSE(fs::exists(rig.s.root / "out" / "run.json"));
  CHECK(rig.github.count("POST", "") == 0);
  CHECK(rig.github.reviews(5).empty());
}

TEST_CASE("comment command: /loopwright triage runs the issues stages, review on an issue runs nothing") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  CommentRig rig;
  rig.github.setPermission("mona", "write");
  auto triage = rig.comment("/loopwright triage", "mona", /*onPull=*/false);
  INFO(triage.out << triage.err);
  CHECK(triage.status == 0);
  CHECK(rig.ranStages() == std::vector<std::string>{"triage"});

  auto review = rig.comment("/loopwright review", "mona", /*onPull=*/false);
  CHECK(review.status == 0);
  CHECK(review.out.find(
            "`/loopwright review` was not run: octo/hello#5 is an issue, and a review needs a pull request") !=
        std::string::npos);
}

TEST_CASE("comment command: any other comment runs the stages on issue_comment and asks no permission") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  CommentRig rig;
  auto r = rig.comment("thanks! /loopwright review", "stranger");
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(rig.ranStages() == std::vector<std::string>{"chat"});
  CHECK(rig.github.count("GET", "/permission") == 0);
}
