#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/carry_forward.h"
#include "github/publish/channels/check_plan.h"
#include "github/publish/conclusion.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"

using namespace lw;
using namespace lw::github;
namespace json = boost::json;

namespace {

const std::string kFp1 = "0123456789abcdef";
const std::string kFp2 = "fedcba9876543210";

json::object comment(std::int64_t id, const std::string& login, const std::string& body, const std::string& path,
                     std::optional<int> line) {
  json::object c{{"id", id}, {"user", json::object{{"login", login}}}, {"body", body}, {"path", path}};
  c["line"] = line ? json::value(*line) : json::value(nullptr);
  return c;
}

std::string marked(const std::string& fp, Origin o = Origin::Trusted, Severity s = Severity::Error) {
  return "**error** `r`\n\nmessage\n" + findingMarker(fp, o, s, "review");
}

StepRow row(const std::string& step, std::optional<Coverage> coverage, StepOutcome outcome = StepOutcome::Passed) {
  StepRow r;
  r.stage = "review";
  r.step = step;
  r.outcome = outcome;
  r.coverage = std::move(coverage);
  return r;
}

Coverage coverage(std::string incrementalFrom, bool complete = true) {
  Coverage c;
  c.complete = complete;
  c.incrementalFrom = std::move(incrementalFrom);
  return c;
}

}  // namespace

TEST_CASE("carry forward: earlier findings come only from our trusted markers, with why each stopped") {
  json::array comments{
      comment(1, "bot", marked(kFp1), "src/app.py", 2),
      comment(2, "bot", marked(kFp2), "src/b.py", std::nullopt),         // outdated
      comment(3, "mallory", marked("1111111111111111"), "src/c.py", 4),  // not ours
      comment(4, "bot", marked("2222222222222222", Origin::Artifact), "src/d.py", 5),
      comment(5, "bot", "<!-- loopwright:finding:3333333333333333 -->", "src/e.py", 6),  // 1.0
      comment(6, "bot", marked("4444444444444444") + "\n" + resolvedMarker("4444444444444444", Origin::Trusted),
              "src/f.py", 7),
      comment(7, "bot", marked("5555555555555555", Origin::Trusted, Severity::Warning), "src/g.py", 8)};
  const std::vector<CarriedFinding> earlier = earlierFindings(comments, "bot", {7});
  REQUIRE(earlier.size() == 3);
  CHECK(earlier[0].fingerprint == kFp1);
  CHECK(earlier[0].path == "src/app.py");
  CHECK(earlier[0].line == 2);
  CHECK(earlier[0].step == "review");
  CHECK(earlier[0].stoppedBecause.empty());
  CHECK(earlier[1].stoppedBecause == kStoppedLinesChanged);
  CHECK(earlier[2].severity == Severity::Warning);
  CHECK(earlier[2].stoppedBecause == kStoppedResolved);
}

TEST_CASE("carry forward: what this run reports again is counted once, by this run") {
  Finding again{"review", "r", Severity::Error, "message", "src/app.py", 2, 0, {}};
  CarriedFinding c{fingerprint(again), Severity::Error, "review", "src/app.py", 2, 1, ""};
  std::vector<StageResult> stages{{"review", {again}}};
  carryForward(stages, {row("review", coverage(std::string(40, 'a')))}, {c}, true);
  CHECK(stages[0].carried.empty());
  const Verdict v = judgeRun(stages, {}, FailOn::Error);
  CHECK(v.reasons == std::vector<std::string>{"1 finding(s) at the fail level (error)"});
}

TEST_CASE(
    "carry forward: an incremental review keeps what it did not look at, a full one drops what it no longer reports") {
  const CarriedFinding open{kFp1, Severity::Error, "review", "src/app.py", 2, 1, ""};
  SUBCASE("incremental: still counts, and the check fails naming it") {
    std::vector<StageResult> stages{{"review", {}}};
    const std::vector<StepRow> steps{row("review", coverage(std::string(40, 'a')))};
    carryForward(stages, steps, {open}, true);
    REQUIRE(stages[0].carried.size() == 1);
    const Verdict v = judgeStage(stages[0], steps, FailOn::Error);
    CHECK(v.conclusion == Conclusion::Failure);
    CHECK(v.reasons == std::vector<std::string>{"1 error carried from an earlier review, at `src/app.py:2`"});
    const CheckRunPlan plan = planCheckRun(stages[0], steps, std::string(40, 'b'), FailOn::Error);
    CHECK(plan.conclusion == "failure");
    CHECK(plan.title.rfind("1 error(s), 0 warning(s), 0 notice(s)", 0) == 0);
    CHECK(plan.annotated == 1);
    CHECK(plan.summary.find("- 1 error carried from an earlier review, at `src/app.py:2`") != std::string::npos);
  }
  SUBCASE("a full review of its step: stops, and says why") {
    std::vector<StageResult> stages{{"review", {}}};
    const std::vector<StepRow> steps{row("review", coverage(""))};
    carryForward(stages, steps, {open}, false);
    REQUIRE(stages[0].carried.size() == 1);
    CHECK(stages[0].carried[0].stoppedBecause == kStoppedFullReview);
    CHECK(judgeStage(stages[0], steps, FailOn::Error).conclusion == Conclusion::Success);
    CHECK(planCheckRun(stages[0], steps, std::string(40, 'b'), FailOn::Error)
              .summary.find("no longer counted: `src/app.py:2` (`review`), a full review no longer reports it") !=
          std::string::npos);
  }
  SUBCASE("a deterministic step without coverage: whole unless the run was incremental") {
    std::vector<StageResult> full{{"review", {}}}, incremental{{"review", {}}};
    carryForward(full, {row("review", std::nullopt)}, {open}, false);
    carryForward(incremental, {row("review", std::nullopt)}, {open}, true);
    CHECK(full[0].carried[0].stoppedBecause == kStoppedFullReview);
    CHECK(incremental[0].carried[0].stoppedBecause.empty());
  }
  SUBCASE("a step that failed says nothing about what it did not report") {
    std::vector<StageResult> stages{{"review", {}}};
    carryForward(stages, {row("review", coverage(""), StepOutcome::Failed)}, {open}, false);
    CHECK(stages[0].carried[0].stoppedBecause.empty());
  }
  SUBCASE("resolved by a person, or its lines changed: does not count, whatever the review") {
    CarriedFinding resolved = open, outdated = open;
    resolved.stoppedBecause = kStoppedResolved;
    outdated.stoppedBecause = kStoppedLinesChanged;
    std::vector<StageResult> stages{{"review", {}}};
    const std::vector<StepRow> steps{row("review", coverage(std::string(40, 'a')))};
    carryForward(stages, steps, {resolved, outdated}, true);
    CHECK(judgeStage(stages[0], steps, FailOn::Error).conclusion == Conclusion::Success);
    CHECK(stillCounting(stages[0]).empty());
  }
}

TEST_CASE("carry forward: a finding goes to the stage of its step, the first stage when none has it") {
  std::vector<StageResult> stages{{"lint", {}}, {"security", {}}};
  StepRow sec = row("scan", coverage(std::string(40, 'a')));
  sec.stage = "security";
  carryForward(stages, {sec},
               {{kFp1, Severity::Error, "scan", "a", 1, 1, ""}, {kFp2, Severity::Warning, "gone", "b", 2, 2, ""}},
               true);
  REQUIRE(stages[1].carried.size() == 1);
  CHECK(stages[1].carried[0].fingerprint == kFp1);
  REQUIRE(stages[0].carried.size() == 1);
  CHECK(stages[0].carried[0].fingerprint == kFp2);
}
