#include "pipeline/author/contract_apply.h"

#include "core/step_label.h"
#include "guard/event.h"
#include "pipeline/author/contract_plan.h"
#include "pipeline/author/validate_run.h"
#include "pipeline/step/refusal_blocker.h"

namespace lw::pipeline {
namespace {

constexpr std::string_view kKeepTheContract =
    "make the change keep the step's task contract, or change the contract in the taskpack "
    "(docs/taskpack.md, \"Task contract\")";

// The validate command planned from the step's own plan (planStep is pure:
// the same plan runStep carried out) and run on the worktree.
ValidationRun validate(const PlannedStep& planned, sandbox::Backend& backend, const StepWorkspace& workspace,
                       const RunContext& ctx) {
  const std::vector<std::string>& argv = planned.step->contract.validate;
  auto plan = planStep(planned, backend.traits(), toString(backend.id()), ctx, hostLookups(), &workspace);
  if (!plan) {
    ValidationRun refused;
    refused.command = argv;
    refused.error = plan.error().message;
    return refused;
  }
  return runValidation(backend, planValidate(*plan, argv), validateLayout(plan->layout.stepDir),
                       planned.policy.limits.wallTimeMs, *ctx.secrets);
}

std::string lastSafeState(const AuthorChange& change) {
  std::string state = "the checkout is unchanged; the change is kept in " + change.patchFile + ", not published";
  if (change.validation)
    state += "; validate's output is in " + change.validation->stdoutPath + " and " + change.validation->stderrPath;
  return state;
}

}  // namespace

void refuseChange(const Step& step, const Error& refusal, StepRecord& rec, AuthorChange& change) {
  const std::string code(codeName(refusal.code));
  rec.outcome = StepOutcome::Quarantined;
  rec.verification = verify::Verification::Violation;
  rec.violationCode = code;
  rec.message = code + ": " + refusal.message;
  change.accepted = false;
  change.refusedBecause = refusal.message;
  rec.blocker =
      guard::blockerLine("step " + stepLabel(rec.stage, rec.step) +
                             " proposed a change that breaks its task contract (" + code + "): " + refusal.message,
                         lastSafeState(change), nextActionFor(step, kKeepTheContract));
}

void applyTaskContract(const PlannedStep& planned, sandbox::Backend& backend, const StepWorkspace& workspace,
                       const RunContext& ctx, StepRecord& rec, AuthorChange& change) {
  const TaskContract& contract = planned.step->contract;
  if (rec.outcome != StepOutcome::Passed || !change.refusedBecause.empty()) return;
  if (auto refusal = judgeChange(change.paths.empty() ? nullptr : &change, contract))
    return refuseChange(*planned.step, *refusal, rec, change);
  if (!validationDue(change, contract)) return;
  change.validation = validate(planned, backend, workspace, ctx);
  if (auto refusal = judgeValidation(*change.validation)) refuseChange(*planned.step, *refusal, rec, change);
}

}  // namespace lw::pipeline
