// What a refused change does to the step's record, and onStop as the next
// action of every BLOCKER of the step.
#include <doctest/doctest.h>

#include "pipeline/author/contract_apply.h"
#include "pipeline/author/contract_plan.h"
#include "pipeline/step/refusal_blocker.h"
#include "pipeline/step/step_settle.h"
#include "pipeline/step_fakes.h"

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

namespace {

// A passed author step of FakeRun with a validate command, and its change.
struct Applied {
  test::FakeRun run;
  StepRecord rec;
  AuthorChange change;
  Applied() {
    run.step.role = Role::Author;
    run.planned.policy.role = Role::Author;
    run.step.contract.validate = {"make", "check"};
    rec = passedAuthor();
    change.paths = {"src/a.txt"};
    change.filesChanged = 1;
    change.linesAdded = 1;
    change.patchFile = "/o/change.patch";
  }
  void apply(test::FakeBackend& backend) {
    applyTaskContract(run.planned, backend, StepWorkspace{run.ctx.repo, {}}, run.ctx, rec, change);
  }
};

}  // namespace

TEST_CASE("author contract: validate runs in the step's sandbox without network or bridge, and its pass is recorded") {
  Applied a;
  a.run.planned.policy.sandbox.networkMode = NetworkMode::AllowOutbound;
  test::FakeStepScript script;
  script.stdoutText = "checked s3cr3t-value\n";
  test::FakeBackend backend(a.run.clock, {}, script);
  a.apply(backend);
  REQUIRE(backend.launched.has_value());
  CHECK(backend.launched->argv == std::vector<std::string>{"make", "check"});
  CHECK(backend.launched->network == NetworkMode::None);
  CHECK_FALSE(backend.launched->passFd.has_value());
  CHECK(backend.launched->workspaceWritable);
  CHECK(backend.launched->outDir == a.run.ctx.outRoot / "steps/review/check/validate/out");
  CHECK_FALSE(backend.launched->env.contains("LOOPWRIGHT_BRIDGE"));
  REQUIRE(a.change.validation.has_value());
  CHECK(a.change.validation->passed);
  CHECK(a.change.validation->wallTimeMs == 1500);
  CHECK(a.change.validation->secretsMasked == 1);
  CHECK(a.change.refusedBecause.empty());
  CHECK(a.rec.outcome == StepOutcome::Passed);
}

TEST_CASE("author contract: a failing validate refuses the change") {
  Applied a;
  test::FakeStepScript script;
  script.exitCode = 2;
  test::FakeBackend backend(a.run.clock, {}, script);
  a.apply(backend);
  CHECK(a.rec.outcome == StepOutcome::Quarantined);
  CHECK(a.rec.violationCode == "CONTRACT_UNMET");
  CHECK(a.change.refusedBecause == "validate `make check` exited 2");
  CHECK_FALSE(a.change.accepted);
}

TEST_CASE("author contract: nothing is judged or run for a step that did not pass, or a change already refused") {
  Applied a;
  test::FakeBackend backend(a.run.clock, {}, test::FakeStepScript{});
  a.rec.outcome = StepOutcome::Failed;
  a.apply(backend);
  CHECK_FALSE(backend.launched.has_value());
  CHECK(a.rec.outcome == StepOutcome::Failed);
  CHECK_FALSE(a.change.validation.has_value());
  a.rec.outcome = StepOutcome::Passed;
  a.change.refusedBecause = "no patch: disk full";
  a.apply(backend);
  CHECK_FALSE(backend.launched.has_value());
  CHECK(a.change.refusedBecause == "no patch: disk full");
}

TEST_CASE("author contract: no change from a step that expects one is CONTRACT_UNMET, and validate does not run") {
  Applied a;
  a.run.step.contract.expects = {"src/**"};
  a.change.paths.clear();
  a.change.filesChanged = 0;
  a.change.linesAdded = 0;
  test::FakeBackend backend(a.run.clock, {}, test::FakeStepScript{});
  a.apply(backend);
  CHECK_FALSE(backend.launched.has_value());
  CHECK(a.rec.outcome == StepOutcome::Quarantined);
  CHECK(a.change.refusedBecause == "changed nothing, the contract expects a change to src/**");
}

TEST_CASE("author contract: a step without a contract that changes a .gitignore is refused, validate not run") {
  Applied a;
  a.run.step.contract = TaskContract{};
  a.change.paths = {".gitignore", "src/a.txt"};
  a.change.filesChanged = 2;
  test::FakeBackend backend(a.run.clock, {}, test::FakeStepScript{});
  a.apply(backend);
  CHECK_FALSE(backend.launched.has_value());
  CHECK(a.rec.outcome == StepOutcome::Quarantined);
  CHECK(a.rec.violationCode == "PATH_POLICY_VIOLATION");
  CHECK(a.change.refusedBecause ==
        "changed .gitignore: .gitattributes and .gitignore files the contract does not list in gitRuleFiles");
  CHECK_FALSE(a.change.accepted);
}
