// A fork's artifact is bounded by the base repository's taskpack
// (docs/fork-pull-requests.md, "Caps"), end to end against the local GitHub
// server: the publishing job reads the taskpack of the pull request's base
// commit through the contents API, refuses an artifact over its caps before
// any write, and publishes with its options, never the artifact's. The
// artifacts here are written as a fork's job could write them, so no
// sandbox is needed.
#include <doctest/doctest.h>

#include <chrono>

#include <boost/json.hpp>

#include "github/publish/run_artifact.h"
#include "integration/pipeline/fork_rig.h"

using namespace lw;
using namespace lw::test;
using namespace lw::test::fork;
namespace json = boost::json;

namespace {

// kTaskpack's stage and step; their findings on the pull request's diff
// (src/a.py, lines 1 and 2).
github::PublicationRequest honestRequest(const ForkRig& rig) {
  github::PublicationRequest r;
  r.id = "forged-id";
  r.repo = {"octo", "hello"};
  r.number = 7;
  r.isPullRequest = true;
  r.headSha = rig.head;
  r.conclusion = lw::github::Conclusion::Success;
  Finding f;
  f.step = "flag";
  f.ruleId = "x/y";
  f.severity = Severity::Error;
  f.message = "look here";
  f.path = "src/a.py";
  f.line = 1;
  Finding g = f;
  g.line = 2;
  r.stages = {{"review", {f, g}}};
  github::StepRow row;
  row.stage = "review";
  row.step = "flag";
  row.backend = "linux-bwrap";
  row.outcome = github::StepOutcome::Passed;
  r.steps = {row};
  return r;
}

// publication.json as a fork's job may write it: without the findings'
// empty path and zero lines, which the reader does not need, so that a
// hundred thousand findings fit below the 8 MiB any artifact is refused over.
fs::path writeArtifact(const ForkRig& rig, const github::PublicationRequest& r) {
  json::value doc = github::toJson(r);
  for (auto& stage : doc.at("stages").as_array())
    for (auto& f : stage.at("findings").as_array()) {
      json::object& o = f.as_object();
      if (o.at("path") == "") o.erase("path");
      if (o.at("line") == 0) o.erase("line");
      if (o.at("endLine") == 0) o.erase("endLine");
    }
  fs::path dir = rig.s.root / "forged";
  writeFile(dir / github::kArtifactRequestFile, json::serialize(doc));
  return dir;
}

// 100 times every count the base taskpack caps: stages, step rows, findings
// of a step (kTaskpack has one stage of one step, 1,000 findings a step),
// inline comments (publication.maxInlineComments: 50 by default), and
// changes where it allows none.
github::PublicationRequest hundredTimesTheCaps(const ForkRig& rig) {
  github::PublicationRequest r = honestRequest(rig);
  Finding tiny = r.stages[0].findings[0];
  tiny.path.clear();
  tiny.line = 0;
  tiny.message = "m";
  tiny.ruleId = "r";
  r.stages[0].findings.resize(5000, r.stages[0].findings[0]);  // on the diff: inline comments
  r.stages[0].findings.resize(100'000, tiny);
  for (int i = 1; i < 100; ++i) {
    r.stages.push_back({"stage-" + std::to_string(i), {}});
    github::StepRow row = r.steps[0];
    row.stage = r.stages.back().name;
    r.steps.push_back(row);
  }
  r.options.maxInlineComments = 5000;
  r.options.failOn = FailOn::Never;
  for (int i = 0; i < 100; ++i) r.changes.push_back({"review", "flag", rig.base, "diff --git a/x b/x\n", "", 0});
  return r;
}

bool readBaseTaskpackAt(const ForkRig& rig, const std::string& path) {
  for (const auto& r : rig.github.requests())
    if (r.method == "GET" && r.path.ends_with("/contents/" + path) &&
        r.target.find("ref=" + rig.base) != std::string::npos)
      return true;
  return false;
}

}  // namespace

TEST_CASE("fork caps: an artifact at 100 times the base taskpack's caps is refused before anything is posted") {
  ForkRig rig;
  fs::path artifact = writeArtifact(rig, hundredTimesTheCaps(rig));
  // A token that cannot write: a publisher that does start posting is
  // refused at its first write and stops, instead of pacing thousands of
  // writes a second apart. What is asserted is what reached the server.
  rig.github.setReadOnly(true);

  const auto started = std::chrono::steady_clock::now();
  auto refused = rig.publishJob(workflowRunEvent(rig.head), artifact);
  const auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  MESSAGE("publish --from-artifact of a " << fs::file_size(artifact / "publication.json")
                                          << "-byte artifact at 100x the caps was refused in " << took << " s");
  INFO(refused.out << refused.err);
  CHECK(refused.status == 6);
  CHECK(
      refused.err.find("error[PUBLICATION_FAILED]: the artifact was not published: it is over the base "
                       "taskpack's caps (stages: 100 stages; the base taskpack runs 1 on pull_request; steps: 100 "
                       "step rows; the base taskpack's stages on pull_request have 1 steps; findings: step "
                       "'review/flag' has 100000 findings; a step reports at most 1000; changes: 100 proposed "
                       "changes; the base taskpack has no author step on pull_request; bytes: publication.json is ") !=
      std::string::npos);
  CHECK(rig.writes() == 0);
  CHECK(rig.github.reviews(7).empty());
  CHECK(rig.github.checkRuns().empty());
  const fs::path outbox = rig.s.root / "state" / "outbox";
  CHECK((!fs::exists(outbox) || fs::is_empty(outbox)));
}

TEST_CASE("fork caps: an artifact within the caps is published as before, after reading the base taskpack") {
  ForkRig rig;
  fs::path artifact = writeArtifact(rig, honestRequest(rig));

  auto published = rig.publishJob(workflowRunEvent(rig.head), artifact);
  INFO(published.out << published.err);
  CHECK(published.status == 0);
  CHECK(readBaseTaskpackAt(rig, ".loopwright/taskpack.yaml"));
  auto reviews = rig.github.reviews(7);
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].at("commit_id").as_string() == rig.head);
  CHECK(rig.github.reviewComments(7).size() == 2);
  auto runs = rig.github.checkRuns();
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].at("name") == "loopwright / review");
}

TEST_CASE("fork caps: the publication options are the base taskpack's even when the artifact says otherwise") {
  ForkRig rig;
  // The base fails on errors and places one inline comment; the artifact
  // claims its errors fail nothing and asks for fifty comments.
  rig.serveBaseTaskpack(std::string(kTaskpack) + "  publication: {failOn: error, maxInlineComments: 1}\n");
  github::PublicationRequest r = honestRequest(rig);
  r.options.failOn = FailOn::Never;
  r.options.maxInlineComments = 50;
  r.options.review = ReviewMode::RequestChanges;
  r.conclusion = lw::github::Conclusion::Success;
  fs::path artifact = writeArtifact(rig, r);

  auto published = rig.publishJob(workflowRunEvent(rig.head), artifact);
  INFO(published.out << published.err);
  CHECK(published.status == 0);
  auto runs = rig.github.checkRuns();
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].at("conclusion") == "failure");
  CHECK(rig.github.reviewComments(7).size() == 1);
  auto reviews = rig.github.reviews(7);
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].at("state") == "COMMENTED");
}

TEST_CASE("fork caps: without a valid base taskpack nothing is published") {
  ForkRig rig;
  fs::path artifact = writeArtifact(rig, honestRequest(rig));

  SUBCASE("the base commit has no taskpack") {
    rig.github.reads().contents[rig.base].clear();
    auto r = rig.publishJob(workflowRunEvent(rig.head), artifact);
    CHECK(r.status == 6);
    CHECK(r.err.find("error[PUBLICATION_FAILED]: the artifact was not published: the base taskpack " + rig.base +
                     ":.loopwright/taskpack.yaml does not exist") != std::string::npos);
  }
  SUBCASE("the base commit's taskpack is invalid") {
    rig.serveBaseTaskpack("apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nspec: {stages: 3}\n");
    auto r = rig.publishJob(workflowRunEvent(rig.head), artifact);
    CHECK(r.status == 6);
    CHECK(r.err.find(":.loopwright/taskpack.yaml is invalid") != std::string::npos);
  }
  SUBCASE("the taskpack is elsewhere than --taskpack-path says") {
    rig.serveBaseTaskpack(kTaskpack, "ci/taskpack.yaml");
    rig.github.reads().contents[rig.base].erase(".loopwright/taskpack.yaml");
    auto r = rig.publishJob(workflowRunEvent(rig.head), artifact);
    CHECK(r.status == 6);
    CHECK(r.err.find("does not exist") != std::string::npos);
  }
  SUBCASE("a --taskpack-path outside the repository") {
    auto r = rig.publishJob(workflowRunEvent(rig.head), artifact, {"--taskpack-path", "../taskpack.yaml"});
    CHECK(r.status == 2);
    CHECK(r.err.find("--taskpack-path '../taskpack.yaml' is not inside the repository") != std::string::npos);
  }
  CHECK(rig.writes() == 0);
  CHECK(rig.github.reviews(7).empty());
  CHECK(rig.github.checkRuns().empty());
}

TEST_CASE("fork caps: the taskpack is read where --taskpack-path says") {
  ForkRig rig;
  rig.serveBaseTaskpack(kTaskpack, "ci/taskpack.yaml");
  rig.github.reads().contents[rig.base].erase(".loopwright/taskpack.yaml");
  fs::path artifact = writeArtifact(rig, honestRequest(rig));

  auto published = rig.publishJob(workflowRunEvent(rig.head), artifact, {"--taskpack-path", "./ci/taskpack.yaml"});
  INFO(published.out << published.err);
  CHECK(published.status == 0);
  CHECK(readBaseTaskpackAt(rig, "ci/taskpack.yaml"));
  CHECK(rig.github.checkRuns().size() == 1);
}
