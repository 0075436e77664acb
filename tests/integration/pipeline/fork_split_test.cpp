// The fork split end to end against the local GitHub server
// (docs/fork-pull-requests.md): a fork's pull_request job runs with
// --publish none and leaves publication.json in its run directory; the
// workflow_run job publishes that directory with `publish --from-artifact`,
// only while the pull request's head is still the one reviewed.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_github.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const char* kTaskpack = R"(apiVersion: loopwright.dev/v1alpha1
kind: Taskpack
metadata: {name: fork-review}
spec:
  sandbox: {preferredBackends: [linux-bwrap]}
  stages:
    - name: review
      on: [pull_request]
      steps:
        - name: flag
          run: [sh, -c, 'printf "%s" "{\"findings\":[{\"ruleId\":\"x/y\",\"severity\":\"warning\",\"message\":\"look here\",\"path\":\"src/a.py\",\"line\":2}]}" > "$LOOPWRIGHT_OUT/findings.json"']
)";

json::object repoJson(const std::string& owner, const std::string& name) {
  return {{"name", name}, {"full_name", owner + "/" + name}, {"owner", json::object{{"login", owner}}}};
}

json::object forkPullEvent(const std::string& base, const std::string& head) {
  return {{"action", "opened"},
          {"pull_request", json::object{{"number", 7},
                                        {"author_association", "CONTRIBUTOR"},
                                        {"labels", json::array{}},
                                        {"head", json::object{{"sha", head}, {"ref", "feature"},
                                                              {"repo", repoJson("forker", "hello")}}},
                                        {"base", json::object{{"sha", base}, {"ref", "main"},
                                                              {"repo", repoJson("octo", "hello")}}}}},
          {"repository", repoJson("octo", "hello")},
          {"sender", json::object{{"login", "forker"}}}};
}

// What GitHub sends the publishing workflow: pull_requests is empty for a
// fork's head (GitHub lists only the base repository's own branches).
json::object workflowRunEvent(const std::string& head) {
  return {{"action", "completed"},
          {"workflow_run", json::object{{"id", 4242},
                                        {"run_attempt", 1},
                                        {"event", "pull_request"},
                                        {"head_sha", head},
                                        {"head_repository", json::object{{"full_name", "forker/hello"}}},
                                        {"pull_requests", json::array{}}}},
          {"repository", repoJson("octo", "hello")}};
}

struct ForkRig {
  Scratch s;
  fs::path repo = s.root / "repo";
  std::string base, head;
  FakeGithub github;
  std::map<std::string, std::string> env;

  ForkRig() {
    makeRepo(repo, {{".loopwright/taskpack.yaml", kTaskpack}, {"README.md", "hello\n"}});
    base = capture("git -C '" + repo.string() + "' rev-parse HEAD");
    base.pop_back();
    REQUIRE(sh("cd '" + repo.string() + "' && mkdir -p src && printf 'x = 1\\ny = 2\\n' > src/a.py && "
               "git add -A && git -c user.name=e -c user.email=e@invalid commit -qm pr") == 0);
    head = capture("git -C '" + repo.string() + "' rev-parse HEAD");
    head.pop_back();
    github.addPull(7, head, capture("git -C '" + repo.string() + "' diff HEAD~1 HEAD"));
    github.setPullHeadRepo(7, "forker/hello");
    env = hostEnv(s.root);
    env["GITHUB_API_URL"] = github.url();
    env["RUNNER_TEMP"] = (s.root / "runner-temp").string();
    fs::create_directories(s.root / "runner-temp");
  }

  // The pull_request job: no token that could write, nothing published.
  CliRun pullRequestJob() {
    writeFile(s.root / "pr-event.json", json::serialize(forkPullEvent(base, head)));
    return runCli({"run", "--repo", repo.string(), "--event-name", "pull_request", "--event-path",
                   (s.root / "pr-event.json").string(), "--out", (s.root / "artifact").string(), "--publish",
                   "none"},
                  env);
  }

  // The pull_request job, which must succeed and post nothing.
  void ranPullRequestJob() {
    auto pr = pullRequestJob();
    INFO(pr.out << pr.err);
    REQUIRE(pr.status == 0);
    REQUIRE(fs::exists(s.root / "artifact" / "publication.json"));
    CHECK(github.count("POST", "") == 0);
  }

  // The workflow_run job on `artifact`.
  CliRun publishJob(const json::object& event, const fs::path& artifact) {
    writeFile(s.root / "wr-event.json", json::serialize(event));
    auto e = env;
    e["GITHUB_TOKEN"] = FakeGithub::kToken;
    e["GITHUB_EVENT_NAME"] = "workflow_run";
    e["GITHUB_EVENT_PATH"] = (s.root / "wr-event.json").string();
    return runCli({"publish", "--from-artifact", artifact.string(), "--state-dir", (s.root / "state").string()}, e);
  }
};

}  // namespace

TEST_CASE("fork split: the pull_request job's artifact is published by the workflow_run job on the current head") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  ForkRig rig;
  rig.ranPullRequestJob();

  auto published = rig.publishJob(workflowRunEvent(rig.head), rig.s.root / "artifact");
  INFO(published.out << published.err);
  CHECK(published.status == 0);
  auto reviews = rig.github.reviews(7);
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].at("commit_id").as_string() == rig.head);
  auto comments = rig.github.reviewComments(7);
  REQUIRE(comments.size() == 1);
  CHECK(comments[0].at("path") == "src/a.py");
  CHECK(rig.github.checkRuns().size() == 1);
}

TEST_CASE("fork split: after a new push the same artifact is refused and nothing is posted") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  ForkRig rig;
  rig.ranPullRequestJob();
  rig.github.movePullHead(7, "9999999999999999999999999999999999999999");
  rig.github.clearRequests();

  auto refused = rig.publishJob(workflowRunEvent(rig.head), rig.s.root / "artifact");
  INFO(refused.out << refused.err);
  CHECK(refused.status == 6);
  CHECK(refused.err.find("has moved on") != std::string::npos);
  CHECK(refused.err.find("the newer push is reviewed by its own run") != std::string::npos);
  CHECK(rig.github.count("POST", "") == 0);
  CHECK(rig.github.count("PATCH", "") == 0);
  CHECK(rig.github.reviews(7).empty());
  CHECK(rig.github.checkRuns().empty());
}

TEST_CASE("fork split: where to post comes from the workflow_run event, not the artifact") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  ForkRig rig;
  rig.ranPullRequestJob();
  fs::path artifact = rig.s.root / "artifact";

  SUBCASE("an artifact of another commit than the workflow run's") {
    auto r = rig.publishJob(workflowRunEvent("1111111111111111111111111111111111111111"), artifact);
    CHECK(r.status == 6);
    CHECK(r.err.find("but the workflow run ran on 1111111") != std::string::npos);
  }
  SUBCASE("a workflow run from another head repository") {
    auto event = workflowRunEvent(rig.head);
    event["workflow_run"].as_object()["head_repository"] = json::object{{"full_name", "mallory/hello"}};
    auto r = rig.publishJob(event, artifact);
    CHECK(r.status == 6);
    CHECK(r.err.find("comes from forker/hello, but the workflow run ran on mallory/hello") != std::string::npos);
  }
  SUBCASE("an artifact naming another pull request than the workflow run's") {
    auto event = workflowRunEvent(rig.head);
    event["workflow_run"].as_object()["pull_requests"] = json::array{
        json::object{{"number", 8}, {"base", json::object{{"repo", json::object{{"name", "hello"}}}}}}};
    auto r = rig.publishJob(event, artifact);
    CHECK(r.status == 6);
    CHECK(r.err.find("is not one the workflow run was for") != std::string::npos);
  }
  SUBCASE("an artifact edited to name another repository") {
    std::string text = readFile(artifact / "publication.json");
    auto doc = json::parse(text);
    doc.as_object()["repository"] = "other/place";
    writeFile(artifact / "publication.json", json::serialize(doc));
    auto r = rig.publishJob(workflowRunEvent(rig.head), artifact);
    CHECK(r.status == 6);
    CHECK(r.err.find("it names other/place, but the workflow run is octo/hello's") != std::string::npos);
  }
  SUBCASE("outside a workflow_run job") {
    auto e = rig.env;
    e["GITHUB_TOKEN"] = FakeGithub::kToken;
    e["GITHUB_EVENT_NAME"] = "pull_request";
    e["GITHUB_EVENT_PATH"] = (rig.s.root / "pr-event.json").string();
    auto r = runCli({"publish", "--from-artifact", artifact.string(), "--state-dir", (rig.s.root / "state").string()},
                    e);
    CHECK(r.status == 2);
    CHECK(r.err.find("runs in a workflow_run job") != std::string::npos);
  }
  CHECK(rig.github.reviews(7).empty());
  CHECK(rig.github.checkRuns().empty());
}
