#include <doctest/doctest.h>

#include "guard/event.h"

using namespace lw;
using namespace lw::guard;

TEST_CASE("blocker line: exact shape, periods not doubled") {
  CHECK(blockerLine("LOOP_DETECTED: github.event called 5 times with the same arguments within 60 s",
                    "the step's output and logs are kept in /run/out/review/security",
                    "look at the agent's prompt; rerun the step with `loopwright run`") ==
        "BLOCKER: LOOP_DETECTED: github.event called 5 times with the same arguments within 60 s. "
        "Last safe state: the step's output and logs are kept in /run/out/review/security. "
        "Next action: look at the agent's prompt; rerun the step with `loopwright run`.");
  CHECK(blockerLine("a.", "b. ", "c") == "BLOCKER: a. Last safe state: b. Next action: c.");
}

TEST_CASE("guard event: one line for stderr") {
  Event e{EventKind::Warn, ErrorCode::LoopDetected, "called 3 times", "github.event"};
  CHECK(describe(e) == "guardrail warn LOOP_DETECTED (github.event): called 3 times");
  CHECK(toString(EventKind::Escalate) == "escalate");
}

TEST_CASE("blocker for a stop: the code, where the output is kept, the next action") {
  Event stop{EventKind::Stop, ErrorCode::LoopDetected, "echo called 5 times with the same arguments within 60 s",
             "echo"};
  CHECK(blockerFor(stop, "review/security", "/run/lw/out/review/security") ==
        "BLOCKER: step 'review/security' stopped by LOOP_DETECTED: echo called 5 times with the same "
        "arguments within 60 s. Last safe state: the step's output and logs are kept in "
        "/run/lw/out/review/security; nothing of it was published. Next action: read the step's log "
        "for the repeated call, fix the agent's prompt or its tools, then rerun.");
  stop.code = ErrorCode::BudgetExceeded;
  CHECK(blockerFor(stop, "s", "/o").find("Next action: narrow the step, or raise spec.limits") != std::string::npos);
  stop.code = ErrorCode::BreakerOpen;
  CHECK(blockerFor(stop, "s", "/o").find("fallbackLane is rerouted instead.") != std::string::npos);
}
