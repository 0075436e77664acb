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
