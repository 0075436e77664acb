#include <doctest/doctest.h>

#include "github/publish/channels/check_plan.h"
#include "github/publish/channels/coverage_section.h"
#include "github/publish/conclusion.h"

using namespace lw;
using namespace lw::github;

namespace {

StepRow row(std::string step, std::string outcome, std::string blocker = {}) {
  StepRow r;
  r.stage = "review";
  r.step = std::move(step);
  r.outcome = rowOutcomeNamed(outcome);
  r.blocker = std::move(blocker);
  r.blocked = r.outcome == StepOutcome::Blocked;
  return r;
}

Coverage coverage(bool complete, std::string reason = {}) {
  Coverage c;
  c.complete = complete;
  c.reason = std::move(reason);
  c.files = {{"src/a.c", FileReview::Reviewed, ""},
             {"src/big.c", FileReview::Clipped, "over the token budget"},
             {"package-lock.json", FileReview::Skipped, "lock file"}};
  return c;
}

Finding warning() {
  Finding f;
  f.step = "review";
  f.ruleId = "r";
  f.severity = Severity::Warning;
  f.message = "m";
  return f;
}

}  // namespace

TEST_CASE("conclusion: a passed review that covered the change is a success") {
  StepRow r = row("review", "passed");
  r.coverage = coverage(true);
  Verdict v = judgeStage(StageResult{"review", {warning()}}, {r}, FailOn::Error);
  CHECK(v.conclusion == Conclusion::Success);
  CHECK(v.reasons.empty());
}

TEST_CASE("conclusion: incomplete coverage fails the check, or makes it neutral under failOn never") {
  StepRow r = row("review", "passed");
  r.coverage = coverage(false, "the model lane failed (HTTP 503)");
  StageResult stage{"review", {}};
  SUBCASE("failOn error") {
    Verdict v = judgeStage(stage, {r}, FailOn::Error);
    CHECK(v.conclusion == Conclusion::Failure);
    REQUIRE(v.reasons.size() == 1);
    CHECK(v.reasons[0] == "`review` did not review the whole change: the model lane failed (HTTP 503)");
  }
  SUBCASE("failOn never") { CHECK(judgeStage(stage, {r}, FailOn::Never).conclusion == Conclusion::Neutral); }
  SUBCASE("no reason given") {
    r.coverage->reason.clear();
    CHECK(judgeStage(stage, {r}, FailOn::Error).reasons[0] ==
          "`review` did not review the whole change: no reason given");
  }
}

TEST_CASE("conclusion: a failed or stopped reviewer step fails the check whatever the fail level") {
  StageResult stage{"review", {}};
  for (const char* outcome : {"failed", "blocked", "error", "refused", "quarantined"}) {
    CAPTURE(outcome);
    StepRow r = row("review", outcome, std::string(outcome) + ": the model is down\nsecond line");
    Verdict v = judgeStage(stage, {r}, FailOn::Never);
    CHECK(v.conclusion == Conclusion::Failure);
    REQUIRE(v.reasons.size() == 1);
    CHECK(v.reasons[0] == "`review`: " + std::string(outcome) + ": the model is down second line");
  }
  // Skipped steps (their stage did not run) and other stages' steps do not count.
  CHECK(judgeStage(stage, {row("review", "skipped", "skipped: x")}, FailOn::Error).conclusion == Conclusion::Success);
  StepRow other = row("lint", "failed", "failed: exited with status 1");
  other.stage = "lint";
  CHECK(judgeStage(stage, {other}, FailOn::Error).conclusion == Conclusion::Success);
}

TEST_CASE("conclusion: failure outranks neutral, and findings at the fail level are a reason") {
  StepRow r = row("review", "passed");
  r.coverage = coverage(false, "budget");
  Finding err = warning();
  err.severity = Severity::Error;
  Verdict v = judgeStage(StageResult{"review", {err}}, {r}, FailOn::Never);
  CHECK(v.conclusion == Conclusion::Neutral);
  Verdict w = judgeStage(StageResult{"review", {warning()}}, {r}, FailOn::Warning);
  CHECK(w.conclusion == Conclusion::Failure);
  REQUIRE(w.reasons.size() == 2);
  CHECK(w.reasons[1] == "1 finding(s) at the fail level (warning)");
}

TEST_CASE("conclusion: the run's verdict covers every stage, and a reviewed-whole head needs every step passed") {
  PublicationRequest req;
  req.options.failOn = FailOn::Error;
  StepRow ok = row("review", "passed");
  ok.coverage = coverage(true);
  req.steps = {ok};
  CHECK(judgeRun(req).conclusion == Conclusion::Success);
  CHECK(reviewedWhole(req));
  StepRow lint = row("lint", "failed", "failed: exited with status 2");
  lint.stage = "lint";
  req.steps.push_back(lint);
  CHECK(judgeRun(req).conclusion == Conclusion::Failure);
  CHECK_FALSE(reviewedWhole(req));
  req.steps = {ok};
  req.steps[0].coverage->complete = false;
  CHECK_FALSE(reviewedWhole(req));
  // Rows of outbox entries written before steps had an outcome.
  StepRow legacy;
  legacy.step = "x";
  CHECK_FALSE(stepFailed(legacy));
  legacy.blocked = true;
  CHECK(stepFailed(legacy));
}

TEST_CASE("check plan: a review whose model failed ends non-success with the reason in its title and summary") {
  StepRow r = row("review", "passed");
  r.coverage = coverage(false, "model.complete failed 3 times (HTTP 503); 2 of 3 files not reviewed");
  StageResult stage{"review", {}};
  CheckRunPlan p = planCheckRun(stage, {r}, "abcdef0123456789", FailOn::Error);
  CHECK(p.conclusion == "failure");
  CHECK(p.title ==
        "0 error(s), 0 warning(s), 0 notice(s); `review` did not review the whole change: model.complete failed 3 "
        "times (HTTP 503); 2 of 3 files not reviewed");
  CHECK(p.summary.find("#### Not a success because\n\n- `review` did not review the whole change: model.complete") !=
        std::string::npos);
  // The same findings with the coverage now complete are another result: a
  // re-run must not find the failed check run and stop there.
  StepRow done = r;
  done.coverage->complete = true;
  CheckRunPlan after = planCheckRun(stage, {done}, "abcdef0123456789", FailOn::Error);
  CHECK(after.conclusion == "success");
  CHECK(after.externalId != p.externalId);
  CHECK(p.title.size() <= 255);
  CHECK(p.summary.find("reviewed only the changes since") == std::string::npos);
  done.coverage->incrementalFrom = "0123456789abcdef0123456789abcdef01234567";
  CHECK(
      planCheckRun(stage, {done}, "abcdef0123456789", FailOn::Error)
          .summary.find("`review` reviewed only the changes since `0123456789ab`; findings posted for earlier commits "
                        "stay open on their review threads.") != std::string::npos);
}

TEST_CASE("coverage summary: counts, a collapsible list with reasons, tokens, bounded per step") {
  StepRow r = row("review", "passed");
  r.coverage = coverage(false, "budget reached");
  r.coverage->incrementalFrom = "0123456789abcdef0123456789abcdef01234567";
  r.tokensUsed = 1234;
  std::string md = coverageMarkdown({r});
  CHECK(md.find("### Coverage\n\n<details><summary><code>review/review</code>: 1 reviewed, 1 clipped, 1 skipped "
                "(since 0123456789ab); incomplete: budget reached</summary>") != std::string::npos);
  CHECK(md.find("| `src/big.c` | clipped | over the token budget |") != std::string::npos);
  CHECK(md.find("| `package-lock.json` | skipped | lock file |") != std::string::npos);
  CHECK(md.find("Model tokens used: 1234") != std::string::npos);

  StepRow many = row("review", "passed");
  many.coverage = Coverage{};
  many.coverage->complete = true;
  for (std::size_t i = 0; i < kCoverageRowsPerStep + 5; ++i)
    many.coverage->files.push_back({"f" + std::to_string(i) + "|x", FileReview::Reviewed, ""});
  std::string big = coverageMarkdown({many});
  CHECK(big.find("| `f0\\|x` | reviewed |") != std::string::npos);  // a path cannot break the table
  CHECK(big.find("`f" + std::to_string(kCoverageRowsPerStep) + "\\|x`") == std::string::npos);
  CHECK(big.find("_5 more file(s); every file is in run.json._") != std::string::npos);
  CHECK(coverageMarkdown({row("lint", "passed")}).empty());
}

TEST_CASE("conclusion: what each step outcome weighs, by the name the outbox carries") {
  struct Case {
    const char* outcome;
    bool blocked;
    FailureKind kind;
  };
  const Case cases[] = {
      {"passed", false, FailureKind::None},
      {"skipped", false, FailureKind::None},
      {"failed", false, FailureKind::Failed},
      {"error", false, FailureKind::Failed},
      {"refused", true, FailureKind::Refused},
      {"blocked", true, FailureKind::Guardrail},
      {"quarantined", true, FailureKind::Verification},
      {"", true, FailureKind::Guardrail},
      {"", false, FailureKind::None},
      {"cancelled", false, FailureKind::Failed},
  };
  for (const Case& c : cases) {
    CAPTURE(c.outcome);
    StepRow r = row("x", c.outcome);
    r.blocked = c.blocked;
    CHECK(failureOf(r) == c.kind);
    CHECK(stepFailed(r) == (c.kind != FailureKind::None));
    Verdict v = judgeRun({}, {r}, FailOn::Error);
    CHECK(v.worst == c.kind);
    CHECK(v.conclusion == (c.kind == FailureKind::None ? Conclusion::Success : Conclusion::Failure));
  }
}

TEST_CASE("conclusion: the worst failure wins whatever the order, and a neutral reason never hides one") {
  StepRow quarantined = row("q", "quarantined", "BLOCKER: wrote .github/workflows/x.yml");
  StepRow blocked = row("b", "blocked", "BLOCKER: LOOP_DETECTED");
  StepRow refused = row("r", "refused", "refused: no backend");
  StepRow incomplete = row("i", "passed");
  incomplete.coverage = coverage(false, "budget");
  Verdict v =
      judgeRun({StageResult{"review", {warning()}}}, {incomplete, refused, quarantined, blocked}, FailOn::Never);
  CHECK(v.conclusion == Conclusion::Failure);
  CHECK(v.worst == FailureKind::Verification);
  CHECK(v.reasons.size() == 4);
  Verdict neutral = judgeRun({}, {incomplete}, FailOn::Never);
  CHECK(neutral.conclusion == Conclusion::Neutral);
  CHECK(neutral.worst == FailureKind::None);
  Verdict findings = judgeRun({StageResult{"review", {warning()}}}, {incomplete}, FailOn::Warning);
  CHECK(findings.worst == FailureKind::Failed);
  CHECK(findings.reasons.back() == "1 finding(s) at the fail level (warning)");
}

TEST_CASE("conclusion: step outcomes round-trip through their names") {
  for (StepOutcome o : {StepOutcome::Passed, StepOutcome::Failed, StepOutcome::Blocked, StepOutcome::Quarantined,
                        StepOutcome::Refused, StepOutcome::Skipped, StepOutcome::Error})
    CHECK(stepOutcomeNamed(toString(o)) == o);
  CHECK_FALSE(stepOutcomeNamed("").has_value());
  CHECK_FALSE(rowOutcomeNamed("").has_value());
  CHECK(rowOutcomeNamed("cancelled") == StepOutcome::Failed);
  CHECK(rowOutcomeNamed("blocked") == StepOutcome::Blocked);
  CHECK(toString(Conclusion::Neutral) == "neutral");
}
