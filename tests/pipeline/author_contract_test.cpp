// What a refused change does to the step's record, and onStop as the next
// action of every BLOCKER of the step.
#include <doctest/doctest.h>

#include "pipeline/author_contract.h"
#include "pipeline/refusal_blocker.h"
#include "pipeline/step_settle.h"
#include "pipeline/task_contract.h"

using namespace lw;
using namespace lw::pipeline;

namespace {

constexpr const char* kOnStop = "run clang-format locally and push";

StepRecord passedAuthor() {
  StepRecord rec;
  rec.stage = "fix";
  rec.step = "fmt";
  rec.role = Role::Author;
  rec.outcome = StepOutcome::Passed;
  rec.verification = verify::Verification::Passed;
  return rec;
}

// An author step stopped at its wall time, observed as runStep would.
struct Stopped {
  Step step;
  PlannedStep planned;
  verify::Baseline baseline;
  verify::SecretScanner scanner;
  StepObservations seen;
  Stopped() {
    step.name = "fmt";
    step.role = Role::Author;
    planned.step = &step;
    planned.policy.stage = "fix";
    planned.policy.step = "fmt";
    planned.policy.role = Role::Author;
    planned.policy.limits.wallTimeMs = 1500;
    seen.planned = &planned;
    seen.layout = stepLayout("/out", planned.policy);
    seen.ran = StepRun{};
    seen.ran->exit.timedOut = true;
    seen.check = Result<verify::CheckReport>(verify::CheckReport{});
    seen.baseline = &baseline;
  }
};

}  // namespace

TEST_CASE("author contract: a refused change is a verification refusal, its BLOCKER with onStop as next action") {
  Step step;
  step.contract.onStop = kOnStop;
  StepRecord rec = passedAuthor();
  AuthorChange change;
  change.patchFile = "/out/steps/fix/fmt/change.patch";
  change.accepted = true;
  refuseChange(step, makeError(ErrorCode::PathPolicyViolation, "changed 31 files, the contract allows 20"), rec,
               change);
  CHECK(rec.outcome == StepOutcome::Quarantined);
  CHECK(rec.verification == verify::Verification::Violation);
  CHECK(rec.violationCode == "PATH_POLICY_VIOLATION");
  CHECK(rec.message == "PATH_POLICY_VIOLATION: changed 31 files, the contract allows 20");
  CHECK_FALSE(change.accepted);
  CHECK(change.refusedBecause == "changed 31 files, the contract allows 20");
  CHECK(rec.blocker ==
        "BLOCKER: step fix/fmt proposed a change that breaks its task contract (PATH_POLICY_VIOLATION): changed 31 "
        "files, the contract allows 20. Last safe state: the checkout is unchanged; the change is kept in "
        "/out/steps/fix/fmt/change.patch, not published. Next action: run clang-format locally and push.");
}

TEST_CASE("author contract: without onStop the BLOCKER says how to keep the contract, and where validate's output is") {
  StepRecord rec = passedAuthor();
  AuthorChange change;
  change.patchFile = "/o/change.patch";
  change.validation = ValidationRun{};
  change.validation->stdoutPath = "/o/validate/stdout.log";
  change.validation->stderrPath = "/o/validate/stderr.log";
  refuseChange(Step{}, makeError(ErrorCode::ContractUnmet, "validate `make check-format` exited 2"), rec, change);
  CHECK(rec.violationCode == "CONTRACT_UNMET");
  CHECK(rec.blocker ==
        "BLOCKER: step fix/fmt proposed a change that breaks its task contract (CONTRACT_UNMET): validate `make "
        "check-format` exited 2. Last safe state: the checkout is unchanged; the change is kept in /o/change.patch, "
        "not published; validate's output is in /o/validate/stdout.log and /o/validate/stderr.log. Next action: make "
        "the change keep the step's task contract, or change the contract in the taskpack (docs/taskpack.md, \"Task "
        "contract\").");
}

TEST_CASE("author contract: onStop is the next action of a wall-time stop and of a quarantine") {
  Stopped s;
  StepRecord without = settleStep(s.seen, s.scanner);
  CHECK(without.outcome == StepOutcome::Blocked);
  CHECK(without.blocker.ends_with("otherwise fix the agent's loop."));
  s.step.contract.onStop = kOnStop;
  StepRecord with = settleStep(s.seen, s.scanner);
  CHECK(with.blocker.ends_with(". Next action: run clang-format locally and push."));
  verify::CheckReport violation;
  violation.violation = ErrorCode::PathPolicyViolation;
  s.seen.check = Result<verify::CheckReport>(violation);
  StepRecord quarantined = settleStep(s.seen, s.scanner);
  CHECK(quarantined.outcome == StepOutcome::Quarantined);
  CHECK(quarantined.blocker.ends_with(". Next action: run clang-format locally and push."));
}

TEST_CASE("author contract: onStop is the next action of a refusal by negotiation") {
  const Error refusal = makeError(ErrorCode::IsolationUnavailable, "no backend gives L2", "install docker");
  CHECK(refusalBlocker("fix/fmt", refusal, "nothing ran").ends_with("Next action: install docker."));
  CHECK(refusalBlocker("fix/fmt", refusal, "nothing ran", std::string(kOnStop))
            .ends_with("Next action: run clang-format locally and push."));
}
