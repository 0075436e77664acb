// settleStep: the precedence of outcomes as a table, and what each ending
// keeps of the step's outputs; observations built by hand, no effects.
#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "pipeline/step/step_settle.h"

using namespace lw;
using namespace lw::pipeline;

namespace {

struct Row {
  const char* name;
  EndingFacts facts;
  Ending ending;
  StepOutcome outcome;
};

EndingFacts facts(std::initializer_list<bool EndingFacts::*> set, int exitStatus = 0) {
  EndingFacts f;
  for (auto flag : set) f.*flag = true;
  f.exitStatus = exitStatus;
  return f;
}

const char* kFindingsJson = R"({"findings":[{"ruleId":"r1","severity":"warning","message":"m"}]})";

// A step that ran and was verified, with `findings.json` from it.
struct Observed {
  Step step;
  PlannedStep planned;
  verify::Baseline baseline;
  verify::SecretScanner scanner{{"s3cr3t-value"}};
  StepObservations seen;
  Observed() {
    step.name = "lint";
    planned.step = &step;
    planned.policy.stage = "review";
    planned.policy.step = "lint";
    planned.policy.limits.wallTimeMs = 1500;
    seen.planned = &planned;
    seen.layout = stepLayout("/out", planned.policy);
    seen.ran = StepRun{};
    seen.ran->exit.exitCode = 0;
    seen.check = Result<verify::CheckReport>(verify::CheckReport{});
    seen.baseline = &baseline;
    seen.outputs.findings = Result<std::string>(std::string(kFindingsJson));
    seen.durationMs = 1600;
  }
  StepRecord settle() { return settleStep(seen, scanner); }
};

}  // namespace

TEST_CASE("step settle: the precedence of outcomes") {
  using F = EndingFacts;
  const Row rows[] = {
      {"nothing at all", facts({}), Ending::Clean, StepOutcome::Passed},
      {"non-zero exit", facts({}, 1), Ending::NonZeroExit, StepOutcome::Failed},
      {"supervisor lost over its exit status", facts({&F::supervisorLost}, 137), Ending::SupervisorLost,
       StepOutcome::Failed},
      {"invalid output over a lost supervisor", facts({&F::outputInvalid, &F::supervisorLost}, 1),
       Ending::OutputInvalid, StepOutcome::Failed},
      {"wall time over an invalid output", facts({&F::wallTime, &F::outputInvalid}, 124), Ending::WallTime,
       StepOutcome::Blocked},
      {"guardrail stop over the wall time", facts({&F::guardrailStop, &F::wallTime}, 124), Ending::GuardrailStop,
       StepOutcome::Blocked},
      {"violation over a guardrail stop", facts({&F::violation, &F::guardrailStop, &F::outputInvalid}, 137),
       Ending::Violation, StepOutcome::Quarantined},
      {"a check that could not run over a violation", facts({&F::checkFailed, &F::violation}), Ending::CheckFailed,
       StepOutcome::Error},
      {"not run over everything", facts({&F::notRun, &F::checkFailed, &F::violation, &F::guardrailStop}, 1),
       Ending::NotRun, StepOutcome::Refused},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CHECK(endingOf(row.facts) == row.ending);
    CHECK(outcomeOf(endingOf(row.facts), StepOutcome::Refused) == row.outcome);
  }
}

TEST_CASE("step settle: a clean step passes with its findings accepted") {
  Observed o;
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Passed);
  CHECK(rec.message.empty());
  CHECK(rec.verification == verify::Verification::Passed);
  CHECK(rec.outputsAccepted);
  REQUIRE(rec.findings.size() == 1);
  CHECK(rec.findings[0].step == "lint");
  CHECK(rec.durationMs == 1600);
  CHECK(rec.outDir == "/out/steps/review/lint/out");
}

TEST_CASE("step settle: the wall-time stop is a guardrail event at the time the step ended") {
  Observed o;
  o.seen.ran->exit.timedOut = true;
  o.seen.ran->endedAtMs = 1502;
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Blocked);
  CHECK(rec.message == "step review/lint ran past its wall time of 1500 ms (BUDGET_EXCEEDED)");
  REQUIRE(rec.guardrails.size() == 1);
  CHECK(rec.guardrails[0].kind == "stop");
  CHECK(rec.guardrails[0].atMs == 1502);
  CHECK(rec.blocker.rfind("BLOCKER: step review/lint ran past its wall time", 0) == 0);
  CHECK(rec.outputsAccepted);  // a blocked step keeps its verified outputs
}

TEST_CASE("step settle: a guardrail stop names its code and adds no wall-time event") {
  Observed o;
  o.seen.ran->exit.timedOut = true;
  o.seen.ran->bridged.stop = guard::Event{};
  o.seen.ran->bridged.stop->code = ErrorCode::LoopDetected;
  o.seen.ran->bridged.stop->message = "same call 5 times";
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Blocked);
  CHECK(rec.message == "step review/lint was stopped by LOOP_DETECTED (same call 5 times)");
  CHECK(rec.guardrails.empty());
}

TEST_CASE("step settle: a violation quarantines and keeps only the secret-leak findings") {
  Observed o;
  verify::CheckReport report;
  report.violation = ErrorCode::ReadOnlyViolation;
  report.quarantineRef = "refs/loopwright/quarantine/r1/review-lint";
  report.restored = true;
  o.seen.check = Result<verify::CheckReport>(report);
  o.seen.ran->bridged.stop = guard::Event{};
  o.seen.logs.stderrLog.hits.push_back({"run-secret", 0, 12, 1, 1});
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Quarantined);
  CHECK(rec.verification == verify::Verification::Violation);
  CHECK(rec.violationCode == "READ_ONLY_VIOLATION");
  CHECK(rec.repositoryIntact);
  CHECK_FALSE(rec.outputsAccepted);
  REQUIRE(rec.findings.size() == 1);
  CHECK(rec.secretsMasked == 1);
  CHECK(rec.blocker.find("the changes are kept under refs/loopwright/quarantine/r1/review-lint") != std::string::npos);
}

TEST_CASE("step settle: an invalid output fails the step, drops its findings and keeps the leaks and coverage") {
  Observed o;
  o.seen.outputs.triage = Result<std::string>(std::string("{not json"));
  o.seen.outputs.coverage = Result<std::string>(std::string("{}"));
  o.seen.logs.stdoutLog.hits.push_back({"run-secret", 0, 12, 1, 1});
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Failed);
  CHECK(rec.message.rfind("OUTPUT_INVALID: ", 0) == 0);
  CHECK_FALSE(rec.outputsAccepted);
  REQUIRE(rec.findings.size() == 1);
  CHECK(rec.findings[0].message.find("stdout.log") != std::string::npos);
  CHECK(rec.coverage.has_value());
}

TEST_CASE("step settle: secrets in the outputs and the call log are masked and counted") {
  Observed o;
  o.seen.outputs.findings = Result<std::string>(
      std::string(R"({"findings":[{"ruleId":"r1","severity":"warning","message":"key s3cr3t-value"}]})"));
  o.seen.logs.callsLog.hits.push_back({"run-secret", 0, 12, 1, 1});
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Passed);
  CHECK(rec.secretsMasked == 2);
  REQUIRE(rec.findings.size() == 3);
  CHECK(rec.findings[0].message == "key ***");
}

TEST_CASE("step settle: a check that could not run is an error and leaves the repository suspect") {
  Observed o;
  o.seen.check = Result<verify::CheckReport>(makeError(ErrorCode::IoError, "cannot read the index"));
  o.seen.ran->exit.exitCode = 3;
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Error);
  CHECK(rec.message == "verification: cannot read the index");
  CHECK(rec.verification == verify::Verification::NotRun);
  CHECK_FALSE(rec.repositoryIntact);
  CHECK(rec.exitStatus == 3);
  CHECK(rec.findings.empty());
}

TEST_CASE("step settle: a step that never ran carries its failure, and nothing of a run") {
  Observed o;
  o.seen.notRun = NotRun{StepOutcome::Refused, "SANDBOX_CAPABILITY_INSUFFICIENT: no", "BLOCKER: x"};
  auto rec = o.settle();
  CHECK(rec.outcome == StepOutcome::Refused);
  CHECK(rec.message == "SANDBOX_CAPABILITY_INSUFFICIENT: no");
  CHECK(rec.blocker == "BLOCKER: x");
  CHECK(rec.exitStatus == -1);
  CHECK(rec.findings.empty());
}

TEST_CASE("step settle: a built-in's denied egress connections are notices in its own findings") {
  const auto egress = boost::json::parse(
      R"([{"host":"api.example.com","port":443,"allowed":true,"reason":""},)"
      R"({"host":"evil.example","port":8443,"allowed":false,"reason":"evil.example:8443 is not in the step's egress list"}])");
  Observed o;
  o.seen.egress = egress;
  SUBCASE("a run: step keeps its output as written (the run summary has the denial)") {
    CHECK(o.settle().findings.size() == 1);
  }
  SUBCASE("a built-in step publishes the denial") {
    o.step.uses = "builtin/review";
    StepRecord rec = o.settle();
    REQUIRE(rec.findings.size() == 2);
    const Finding& note = rec.findings[1];
    CHECK(note.ruleId == "egress/denied");
    CHECK(note.severity == Severity::Notice);
    CHECK(note.step == "lint");
    CHECK(note.message ==
          "The egress proxy denied a connection to `evil.example:8443`: evil.example:8443 is not in the step's egress "
          "list. To allow it, add `evil.example:8443` to the step's `sandbox.egress` (docs/egress.md).");
  }
}
