// Escalation decisions, pure: from a finished StepRecord and the step's
// policy to one re-run at a higher level, or none and why.
#include <doctest/doctest.h>

#include "pipeline/step/escalation_plan.h"

using namespace lw;
using namespace lw::pipeline;

namespace {

EffectiveStep policyOf(Isolation level, bool idempotent, std::optional<EscalateSpec> escalate) {
  EffectiveStep p;
  p.stage = "review";
  p.step = "a";
  p.sandbox.minIsolation = level;
  p.idempotent = idempotent;
  p.escalate = std::move(escalate);
  p.origins["isolation"] = "taskpack spec.isolation (tp.yaml:5)";
  return p;
}

EscalateSpec escalateTo(std::optional<Isolation> to, std::vector<EscalationTrigger> on = {}) {
  EscalateSpec e;
  e.to = to;
  e.on = std::move(on);
  return e;
}

StepRecord blockedBy(std::vector<GuardrailEvent> events, bool timedOut = false) {
  StepRecord r;
  r.outcome = StepOutcome::Blocked;
  r.backend = "linux-bwrap";
  r.guardrails = std::move(events);
  r.timedOut = timedOut;
  r.blocker = "BLOCKER: stopped. Last safe state: /out/steps/review/a. Next action: look.";
  return r;
}

// The breaker opened escalateAfterCycles times, and the step was stopped.
StepRecord breakerCycles() {
  return blockedBy({{"open", "BREAKER_OPEN", "lane 'm' opened (cycle 1)", 1},
                    {"open", "BREAKER_OPEN", "lane 'm' opened (cycle 2)", 2},
                    {"escalate", "BREAKER_OPEN", "lane 'm' opened 2 times; it is given up for this run", 2},
                    {"stop", "BREAKER_OPEN", "model lane 'm' was given up after 2 open cycles", 2}});
}

StepRecord loopStop() { return blockedBy({{"stop", "LOOP_DETECTED", "same call 5 times", 3}}); }

}  // namespace

TEST_CASE("escalation: decisions table") {
  struct Case {
    const char* name;
    StepRecord finished;
    EffectiveStep policy;
    bool already;
    bool decided, rerun;
    std::string trigger, to, whyNot;
  };
  const std::vector<Case> cases = {
      {"breaker cycles, idempotent, to L2", breakerCycles(), policyOf(Isolation::L1, true, escalateTo(Isolation::L2)),
       false, true, true, "BREAKER_OPEN", "L2", ""},
      {"breaker cycles, to implied: the next level", breakerCycles(), policyOf(Isolation::L1, true, escalateTo({})),
       false, true, true, "BREAKER_OPEN", "L2", ""},
      {"breaker cycles, not idempotent", breakerCycles(), policyOf(Isolation::L1, false, escalateTo(Isolation::L2)),
       false, true, false, "BREAKER_OPEN", "L2", "the step is not idempotent (idempotent: true allows one re-run)"},
      {"breaker cycles below the threshold: opened once, not stopped",
       blockedBy(
           {{"open", "BREAKER_OPEN", "lane 'm' opened (cycle 1)", 1}, {"stop", "BUDGET_EXCEEDED", "model calls", 2}}),
       policyOf(Isolation::L1, true, escalateTo(Isolation::L2)), false, false, false, "", "", ""},
      {"breaker cycles, no escalate declared", breakerCycles(), policyOf(Isolation::L1, true, std::nullopt), false,
       false, false, "", "", ""},
      {"loop stop on the on: list", loopStop(),
       policyOf(Isolation::L1, true, escalateTo(Isolation::L2, {EscalationTrigger::LoopDetected})), false, true, true,
       "LOOP_DETECTED", "L2", ""},
      {"loop stop not on the on: list", loopStop(),
       policyOf(Isolation::L1, true, escalateTo(Isolation::L2, {EscalationTrigger::Timeout})), false, false, false, "",
       "", ""},
      {"wall time is TIMEOUT, not BUDGET_EXCEEDED",
       blockedBy({{"stop", "BUDGET_EXCEEDED", "wall time exceeded", 9}}, true),
       policyOf(Isolation::L1, true, escalateTo({}, {EscalationTrigger::BudgetExceeded})), false, false, false, "", "",
       ""},
      {"wall time with TIMEOUT listed", blockedBy({{"stop", "BUDGET_EXCEEDED", "wall time exceeded", 9}}, true),
       policyOf(Isolation::L1, true, escalateTo({}, {EscalationTrigger::Timeout})), false, true, true, "TIMEOUT", "L2",
       ""},
      {"L2 to L3: linux-gvisor gives it where its probe saw gVisor's kernel", breakerCycles(),
       policyOf(Isolation::L2, true, escalateTo({})), false, true, true, "BREAKER_OPEN", "L3", ""},
      {"breaker cycles, to L3 from L1", breakerCycles(), policyOf(Isolation::L1, true, escalateTo(Isolation::L3)),
       false, true, true, "BREAKER_OPEN", "L3", ""},
      {"no higher level: the floor already set L2", breakerCycles(),
       policyOf(Isolation::L2, true, escalateTo(Isolation::L2)), false, true, false, "BREAKER_OPEN", "L2",
       "escalate.to L2 is not above the level the step runs at, L2 (taskpack spec.isolation (tp.yaml:5))"},
      {"no level above L3", breakerCycles(), policyOf(Isolation::L3, true, escalateTo({})), false, true, false,
       "BREAKER_OPEN", "L3", "no level above L3 exists"},
      {"already escalated once: never again", breakerCycles(), policyOf(Isolation::L1, true, escalateTo(Isolation::L2)),
       true, true, false, "BREAKER_OPEN", "L2", "it was already re-run once at L2; never a second time"},
  };
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      auto d = decideEscalation(c.finished, c.policy, c.already);
      REQUIRE(d.has_value() == c.decided);
      if (!d) continue;
      CHECK(d->rerun == c.rerun);
      CHECK(d->trigger == c.trigger);
      CHECK(toString(d->to) == c.to);
      CHECK(d->notRerunBecause == c.whyNot);
    }
  }
}

TEST_CASE("escalation: a step that passed, failed or was quarantined is never re-run") {
  for (StepOutcome o : {StepOutcome::Passed, StepOutcome::Failed, StepOutcome::Quarantined, StepOutcome::Refused}) {
    StepRecord r = breakerCycles();
    r.outcome = o;
    CHECK_FALSE(decideEscalation(r, policyOf(Isolation::L1, true, escalateTo(Isolation::L2)), false));
  }
}

TEST_CASE("escalation: an author step is not re-run, and says so") {
  EffectiveStep p = policyOf(Isolation::L1, true, escalateTo(Isolation::L2));
  p.role = Role::Author;
  auto d = decideEscalation(breakerCycles(), p, false);
  REQUIRE(d);
  CHECK_FALSE(d->rerun);
  CHECK(d->notRerunBecause == "an author step is not re-run: its leased worktree is its one attempt");
}

TEST_CASE("escalation: the chain explain shows") {
  CHECK(describeChain(
            escalationPlan(policyOf(Isolation::L1, true, escalateTo(Isolation::L2, {EscalationTrigger::Timeout})))) ==
        "L1 -> L2 on BREAKER_OPEN, TIMEOUT (idempotent)");
  CHECK(describeChain(escalationPlan(policyOf(Isolation::L1, false, escalateTo({})))) ==
        "none: the step is not idempotent (idempotent: true allows one re-run)");
  CHECK(describeChain(escalationPlan(policyOf(Isolation::L1, true, std::nullopt))) ==
        "none: the step declares no escalate:");
}

TEST_CASE("escalation: the records of both attempts") {
  const StepRecord first = breakerCycles();
  auto d = decideEscalation(first, policyOf(Isolation::L1, true, escalateTo(Isolation::L2)), false);
  REQUIRE(d);
  SUBCASE("not re-run: the BLOCKER says why") {
    EscalationDecision no = *d;
    no.rerun = false;
    no.notRerunBecause = "the step is not idempotent (idempotent: true allows one re-run)";
    StepRecord r = withoutRerun(first, no);
    REQUIRE(r.escalation);
    CHECK_FALSE(r.escalation->rerun);
    CHECK(r.blocker ==
          "BLOCKER: stopped. Last safe state: /out/steps/review/a. Next action: look. Not re-run at L2: "
          "the step is not idempotent (idempotent: true allows one re-run).");
  }
  SUBCASE("re-run: the second record carries the first attempt") {
    StepRecord second = breakerCycles();
    second.backend = "docker";
    StepRecord r = withRerun(first, second, *d, "/out/steps/review/a.first-attempt");
    REQUIRE(r.escalation);
    CHECK(r.backend == "docker");
    CHECK(r.escalation->rerun);
    CHECK(r.escalation->from == Isolation::L1);
    CHECK(r.escalation->to == Isolation::L2);
    CHECK(r.escalation->firstBackend == "linux-bwrap");
    CHECK(r.escalation->firstOutcome == StepOutcome::Blocked);
    CHECK(r.escalation->firstOutDir == "/out/steps/review/a.first-attempt");
    CHECK(r.blocker.ends_with(" This was the one re-run at L2 after BREAKER_OPEN; there is never a second."));
    auto again = decideEscalation(r, policyOf(Isolation::L2, true, escalateTo(Isolation::L2)), true);
    REQUIRE(again);
    CHECK_FALSE(again->rerun);
  }
}

TEST_CASE("escalation: run.json and the summary show both attempts, or why there was no re-run") {
  const StepRecord first = breakerCycles();
  auto d = decideEscalation(first, policyOf(Isolation::L1, true, escalateTo(Isolation::L2)), false);
  REQUIRE(d);
  StepRecord second = breakerCycles();
  second.step = "a";
  second.backend = "docker";
  StepRecord rerun = withRerun(first, second, *d, "/out/steps/review/a.first-attempt");
  auto j = toJson(rerun).as_object().at("escalation").as_object();
  CHECK(j.at("from").as_string() == "L1");
  CHECK(j.at("to").as_string() == "L2");
  CHECK(j.at("trigger").as_string() == "BREAKER_OPEN");
  CHECK(j.at("rerun").as_bool());
  CHECK(j.at("notRerunBecause").is_null());
  CHECK(j.at("firstAttempt").at("backend").as_string() == "linux-bwrap");
  CHECK(j.at("firstAttempt").at("stepDir").as_string() == "/out/steps/review/a.first-attempt");

  EscalationDecision no = *d;
  no.rerun = false;
  no.notRerunBecause = "the step is not idempotent (idempotent: true allows one re-run)";
  StepRecord kept = withoutRerun(first, no);
  auto k = toJson(kept).as_object().at("escalation").as_object();
  CHECK_FALSE(k.at("rerun").as_bool());
  CHECK(k.at("firstAttempt").is_null());
  CHECK(k.at("notRerunBecause").as_string() == no.notRerunBecause);
  CHECK(toJson(breakerCycles()).as_object().at("escalation").is_null());

  RunRecord run;
  StageRecord stage;
  stage.name = "review";
  stage.ran = true;
  stage.steps = {rerun, kept};
  run.stages.push_back(stage);
  const std::string text = humanSummary(run);
  CHECK(text.find("    escalation L1 -> L2 on BREAKER_OPEN: re-run once; the first attempt was blocked on linux-bwrap "
                  "(kept in /out/steps/review/a.first-attempt)\n") != std::string::npos);
  CHECK(text.find("    escalation L1 -> L2 on BREAKER_OPEN not run: the step is not idempotent (idempotent: true "
                  "allows one re-run)\n") != std::string::npos);
}
