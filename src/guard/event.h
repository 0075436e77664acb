// What a guardrail decided, as a value the pipeline writes to the run record
// and to stderr. Stop events end the step; the others are information.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace lw::guard {

enum class EventKind {
  Warn,        // a loop is forming (same call repeated)
  Suspicious,  // one tool called unusually often
  Stop,        // the step must be stopped now
  Open,        // a lane's breaker opened
  Close,       // a lane's breaker closed after a successful probe
  Escalate,    // a lane's breaker opened too many times: a human must look
};

std::string_view toString(EventKind k);

struct Event {
  EventKind kind = EventKind::Warn;
  ErrorCode code = ErrorCode::LoopDetected;  // LOOP_DETECTED, BREAKER_OPEN or BUDGET_EXCEEDED
  std::string message;
  std::string subject;  // the tool or the lane it is about
};

// "guardrail warn LOOP_DETECTED (github.event): <message>": one line for stderr.
std::string describe(const Event& e);

// The line a stopped step yields (docs/taskpack.md, "Guardrails"), exactly:
// "BLOCKER: <what>. Last safe state: <lastSafeState>. Next action: <nextAction>."
// A trailing period on any part is not doubled.
std::string blockerLine(std::string_view what, std::string_view lastSafeState, std::string_view nextAction);

// The BLOCKER line for a step stopped by `stop` (a Stop event), whose output
// and logs are kept at `keptAt`: what stopped it with its code, and the next
// action that code calls for.
std::string blockerFor(const Event& stop, std::string_view step, std::string_view keptAt);

}  // namespace lw::guard
