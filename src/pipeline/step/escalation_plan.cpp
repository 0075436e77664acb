#include "pipeline/step/escalation_plan.h"

#include <algorithm>

#include "policy/model/isolation.h"

namespace lw::pipeline {
namespace {

constexpr const char* kBreakerOpen = "BREAKER_OPEN";

bool listed(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

bool stoppedWith(const StepRecord& r, const std::string& code) {
  return std::any_of(r.guardrails.begin(), r.guardrails.end(),
                     [&](const GuardrailEvent& e) { return e.kind == "stop" && e.code == code; });
}

// The breaker opened escalateAfterCycles times on the step's lane.
bool breakerEscalated(const StepRecord& r) {
  return std::any_of(r.guardrails.begin(), r.guardrails.end(),
                     [](const GuardrailEvent& e) { return e.kind == "escalate" && e.code == kBreakerOpen; });
}

// Whether `trigger` describes how `r` was stopped. A wall-time stop is
// TIMEOUT, not BUDGET_EXCEEDED, though its event carries that code.
bool fired(const StepRecord& r, const std::string& trigger) {
  if (trigger == "TIMEOUT") return r.timedOut;
  if (trigger == "BUDGET_EXCEEDED") return !r.timedOut && stoppedWith(r, trigger);
  if (trigger == kBreakerOpen) return breakerEscalated(r) || stoppedWith(r, trigger);
  return stoppedWith(r, trigger);
}

std::vector<std::string> triggersOf(const EffectiveStep& policy) {
  std::vector<std::string> out{kBreakerOpen};
  if (policy.escalate)
    for (EscalationTrigger t : policy.escalate->on)
      if (!listed(out, std::string(toString(t)))) out.emplace_back(toString(t));
  return out;
}

// " (host config floor minIsolation (…))": where the step's level came from.
std::string originOf(const EffectiveStep& policy) {
  auto it = policy.origins.find("isolation");
  return it == policy.origins.end() ? "" : " (" + it->second + ")";
}

// Why no re-run can happen at `to` from `from`, or empty.
std::string refusalOf(const EffectiveStep& policy, Isolation from, std::optional<Isolation> to) {
  if (!policy.escalate) return "the step declares no escalate:";
  if (!policy.idempotent) return "the step is not idempotent (idempotent: true allows one re-run)";
  if (policy.role == Role::Author) return "an author step is not re-run: its leased worktree is its one attempt";
  if (!to) return "no level above " + std::string(toString(from)) + " exists";
  if (!isAbove(*to, from))
    return "escalate.to " + std::string(toString(*to)) + " is not above the level the step runs at, " +
           std::string(toString(from)) + originOf(policy);
  if (std::string missing = isolationMissing(*to); !missing.empty())
    return "no level above " + std::string(toString(from)) + " is available: " + missing;
  return {};
}

}  // namespace

EscalationPlan escalationPlan(const EffectiveStep& policy) {
  EscalationPlan plan;
  plan.declared = policy.escalate.has_value();
  plan.from = policy.sandbox.minIsolation;
  plan.triggers = triggersOf(policy);
  std::optional<Isolation> to = levelAbove(plan.from);
  if (policy.escalate && policy.escalate->to) to = policy.escalate->to;
  plan.notAllowedBecause = refusalOf(policy, plan.from, to);
  if (plan.notAllowedBecause.empty()) plan.to = to;
  return plan;
}

std::string describeChain(const EscalationPlan& plan) {
  if (!plan.to) return "none: " + plan.notAllowedBecause;
  std::string on;
  for (const std::string& t : plan.triggers) on += (on.empty() ? "" : ", ") + t;
  return std::string(toString(plan.from)) + " -> " + std::string(toString(*plan.to)) + " on " + on + " (idempotent)";
}

std::string firedTrigger(const StepRecord& finished, const std::vector<std::string>& wanted) {
  for (const std::string& t : wanted)
    if (fired(finished, t)) return t;
  return {};
}

std::optional<EscalationDecision> decideEscalation(const StepRecord& finished, const EffectiveStep& policy,
                                                   bool alreadyEscalated) {
  if (!policy.escalate || finished.outcome != StepOutcome::Blocked) return std::nullopt;
  const EscalationPlan plan = escalationPlan(policy);
  EscalationDecision d;
  d.trigger = firedTrigger(finished, plan.triggers);
  if (d.trigger.empty()) return std::nullopt;
  d.from = plan.from;
  d.to = plan.to ? *plan.to : policy.escalate->to.value_or(levelAbove(plan.from).value_or(plan.from));
  if (alreadyEscalated)
    d.notRerunBecause = "it was already re-run once at " + std::string(toString(d.to)) + "; never a second time";
  else
    d.notRerunBecause = plan.notAllowedBecause;
  d.rerun = d.notRerunBecause.empty();
  return d;
}

StepRecord withoutRerun(StepRecord first, const EscalationDecision& decision) {
  StepEscalation e;
  e.from = decision.from;
  e.to = decision.to;
  e.trigger = decision.trigger;
  e.notRerunBecause = decision.notRerunBecause;
  if (!first.blocker.empty())
    first.blocker += " Not re-run at " + std::string(toString(decision.to)) + ": " + decision.notRerunBecause + ".";
  first.escalation = std::move(e);
  return first;
}

StepRecord withRerun(const StepRecord& first, StepRecord second, const EscalationDecision& decision,
                     const std::string& firstOutDir) {
  StepEscalation e;
  e.from = decision.from;
  e.to = decision.to;
  e.trigger = decision.trigger;
  e.rerun = true;
  e.firstOutcome = first.outcome;
  e.firstBackend = first.backend;
  e.firstBlocker = first.blocker;
  e.firstOutDir = firstOutDir;
  e.firstDurationMs = first.durationMs;
  if (!second.blocker.empty())
    second.blocker += " This was the one re-run at " + std::string(toString(decision.to)) + " after " +
                      decision.trigger + "; there is never a second.";
  second.escalation = std::move(e);
  return second;
}

}  // namespace lw::pipeline
