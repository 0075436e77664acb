// Escalation (docs/taskpack.md, "Isolation and escalation"): whether a step a
// guardrail or its wall time stopped is run once more at a higher isolation
// level. Pure: what the policy allows is known before the step runs
// (escalationPlan, which `explain` shows); whether a re-run happens is
// decided from the finished StepRecord (decideEscalation). The re-run
// itself is step_escalation.h. Never a lower level, never a second re-run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pipeline/run/run_record.h"
#include "policy/model/effective_policy.h"

namespace lw::pipeline {

// What a step's policy allows before it runs.
struct EscalationPlan {
  bool declared = false;              // the step has an `escalate:`
  Isolation from = Isolation::L1;     // the level it runs at (step, taskpack, floor)
  std::optional<Isolation> to;        // set: one re-run at `to` is allowed
  std::vector<std::string> triggers;  // BREAKER_OPEN (always) and the step's `on:`
  std::string notAllowedBecause;      // when `to` is unset: why no re-run can happen
};

// The first reason that applies: no `escalate:`, not idempotent, no level
// above the step's (its `to` is not above the level the floor set, or the
// step is at L3), or a level no backend of this version gives (L3).
EscalationPlan escalationPlan(const EffectiveStep& policy);

// "L1 -> L2 on BREAKER_OPEN, TIMEOUT (idempotent)", or "none: <why>".
std::string describeChain(const EscalationPlan& plan);

// The decision after a step ended. nullopt: nothing that escalates stopped
// it (only a blocked step escalates), or the step declares no `escalate:`.
struct EscalationDecision {
  bool rerun = false;
  Isolation from = Isolation::L1;
  Isolation to = Isolation::L2;  // the level asked for (or that would have been)
  std::string trigger;           // what stopped it: BREAKER_OPEN, LOOP_DETECTED, …
  std::string notRerunBecause;   // when !rerun
};

// `alreadyEscalated`: `finished` is a re-run's record; never a second one.
std::optional<EscalationDecision> decideEscalation(const StepRecord& finished, const EffectiveStep& policy,
                                                   bool alreadyEscalated);

// What stopped a blocked step, in the trigger vocabulary, among `wanted`;
// empty when none of them did. The breaker's escalate event (it opened
// escalateAfterCycles times) is BREAKER_OPEN.
std::string firedTrigger(const StepRecord& finished, const std::vector<std::string>& wanted);

// The record of a step that was not re-run: its escalation says why, and so
// does its BLOCKER.
StepRecord withoutRerun(StepRecord first, const EscalationDecision& decision);

// The re-run's record, with the first attempt (kept in `firstOutDir`) in
// its escalation.
StepRecord withRerun(const StepRecord& first, StepRecord second, const EscalationDecision& decision,
                     const std::string& firstOutDir);

}  // namespace lw::pipeline
