#include <doctest/doctest.h>

#include "github/publish/publication.h"
#include "pipeline/author/proposed_changes.h"
#include "pipeline/publication_builder.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::pipeline;

namespace {

StepRecord authorStep(std::string name, std::string patchFile, bool accepted, std::string refused = {}) {
  StepRecord s;
  s.stage = "fix";
  s.step = std::move(name);
  s.role = Role::Author;
  s.outcome = accepted ? StepOutcome::Passed : StepOutcome::Failed;
  s.backend = "linux-bwrap";
  AuthorChange c;
  c.baseCommit = std::string(40, 'a');
  c.patchFile = std::move(patchFile);
  c.accepted = accepted;
  c.refusedBecause = std::move(refused);
  s.change = c;
  return s;
}

RunRecord runWith(std::vector<StepRecord> steps, const std::string& outDir) {
  RunRecord r;
  r.runId = "run-1";
  r.outDir = outDir;
  r.startedAt = "2026-01-02T03:04:05Z";
  StageRecord st;
  st.name = "fix";
  st.ran = true;
  st.steps = std::move(steps);
  r.stages.push_back(std::move(st));
  return r;
}

github::GithubEvent pullRequest() {
  github::GithubEvent e;
  e.repository = {"o", "r"};
  e.number = 7;
  e.isPullRequest = true;
  e.headSha = std::string(40, 'a');
  return e;
}

}  // namespace

TEST_CASE("publication builder: only accepted changes are carried, with their patch text and public name") {
  test::TempDir out;
  const std::string patch = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
  const std::string good = out.write("fix/fmt/change.patch", patch);
  const std::string bad = out.write("fix/big/change.patch", patch);
  RunRecord run = runWith(
      {authorStep("fmt", good, true), authorStep("big", bad, false, "maxChangedLines: 420 changed, at most 100")},
      out.root.string());
  Publication options;
  auto req = toPublicationRequest(run, pullRequest(), options);
  REQUIRE(req.changes.size() == 1);
  CHECK(req.changes[0].step == "fmt");
  CHECK(req.changes[0].patch == patch);
  CHECK(req.changes[0].fullPatchAt == "fix/fmt/change.patch");
  CHECK(req.changes[0].baseCommit == std::string(40, 'a'));
  CHECK(req.changes[0].committedAt == 1767323045);
  REQUIRE(req.steps.size() == 2);
  CHECK(req.steps[1].guardrailEvents ==
        std::vector<std::string>{"change refused, published nowhere: maxChangedLines: 420 changed, at most 100"});

  SUBCASE("the request's JSON (the outbox entry) keeps the change and the mode") {
    options.patches = PatchPublication::Branch;
    auto back = github::publicationFromJson(github::toJson(toPublicationRequest(run, pullRequest(), options)));
    REQUIRE(back.ok());
    REQUIRE(back->changes.size() == 1);
    CHECK(back->changes[0].patch == patch);
    CHECK(back->changes[0].committedAt == 1767323045);
    CHECK(back->options.patches == PatchPublication::Branch);
  }
  SUBCASE("patches: none carries nothing of the patch, and still notes the refusal") {
    options.patches = PatchPublication::None;
    auto none = toPublicationRequest(run, pullRequest(), options);
    CHECK(none.changes.empty());
    CHECK(github::toJson(none).at("changes").as_array().empty());
    CHECK(none.steps[1].guardrailEvents.size() == 1);
  }
}

TEST_CASE("publication builder: a patch file that cannot be read is noted, without the runner's path") {
  test::TempDir out;
  RunRecord run = runWith({authorStep("fmt", out.root.string() + "/fix/fmt/change.patch", true)}, out.root.string());
  auto req = toPublicationRequest(run, pullRequest(), Publication{});
  CHECK(req.changes.empty());
  REQUIRE(req.steps[0].guardrailEvents.size() == 1);
  CHECK(req.steps[0].guardrailEvents[0].find("change not published: ") == 0);
  CHECK(req.steps[0].guardrailEvents[0].find(out.root.string()) == std::string::npos);
}

TEST_CASE("publication builder: the run's start is the branch commit's time") {
  CHECK(epochSecondsOf("1970-01-01T00:00:10Z") == 10);
  CHECK(epochSecondsOf("not a time") == 0);
}
