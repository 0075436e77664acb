// The task contract applied to an author step (docs/taskpack.md, "Task
// contract"), once the step is settled and its change captured, while its
// worktree is still held: the change judged (task_contract.h), then the
// validate command run on the worktree when due (validate_run.h). A refusal
// makes the step a verification refusal (quarantined: exit 5) whose BLOCKER's
// next action is the step's onStop when given; the change is not accepted.
#pragma once

#include "pipeline/run/run_context.h"
#include "pipeline/run/run_plan.h"
#include "pipeline/run/run_record.h"
#include "pipeline/step/step_plan.h"
#include "sandbox/backend.h"

namespace lw::pipeline {

// Does nothing for a step that did not pass or a change already refused (no
// patch). A step without a contract is judged too: it may change no
// .gitattributes or .gitignore file. `backend` is the step's own.
void applyTaskContract(const PlannedStep& step, sandbox::Backend& backend, const StepWorkspace& workspace,
                       const RunContext& ctx, StepRecord& rec, AuthorChange& change);

// The record of a change `refusal` refused: outcome, verification, message,
// BLOCKER, and the change not accepted. Pure.
void refuseChange(const Step& step, const Error& refusal, StepRecord& rec, AuthorChange& change);

}  // namespace lw::pipeline
