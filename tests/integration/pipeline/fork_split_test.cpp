// The fork split end to end against the local GitHub server
// (docs/fork-pull-requests.md): a fork's pull_request job runs with
// --publish none and leaves publication.json in its run directory; the
// workflow_run job publishes that directory with `publish --from-artifact`,
// only while the pull request's head is still the one reviewed.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "integration/pipeline/fork_rig.h"

using namespace lw::test;
using namespace lw::test::fork;
namespace json = boost::json;

TEST_CASE("fork split: the pull_request job's artifact is published by the workflow_run job on the current head") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  ForkRig rig;
  rig.ranPullRequestJob();

  auto published = rig.publishJob(workflowRunEvent(rig.head), rig.s.root / "artifact");
  INFO(published.out << published.err);
  CHECK(published.status == 0);
  CHECK(rig.github.count("GET", "/contents/.loopwright/taskpack.yaml") > 0);  // the base commit's caps
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
    event["workflow_run"].as_object()["pull_requests"] =
        json::array{json::object{{"number", 8}, {"base", json::object{{"repo", json::object{{"name", "hello"}}}}}}};
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
    auto r =
        runCli({"publish", "--from-artifact", artifact.string(), "--state-dir", (rig.s.root / "state").string()}, e);
    CHECK(r.status == 2);
    CHECK(r.err.find("runs in a workflow_run job") != std::string::npos);
  }
  CHECK(rig.github.reviews(7).empty());
  CHECK(rig.github.checkRuns().empty());
}
