#include "guard/event.h"

namespace lw::guard {

std::string_view toString(EventKind k) {
  switch (k) {
    case EventKind::Warn: return "warn";
    case EventKind::Suspicious: return "suspicious";
    case EventKind::Stop: return "stop";
    case EventKind::Open: return "open";
    case EventKind::Close: return "close";
    case EventKind::Escalate: return "escalate";
  }
  return "unknown";
}

std::string describe(const Event& e) {
  std::string s = "guardrail ";
  s += toString(e.kind);
  s += ' ';
  s += codeName(e.code);
  if (!e.subject.empty()) s += " (" + e.subject + ")";
  s += ": " + e.message;
  return s;
}

namespace {

std::string_view withoutFinalPeriod(std::string_view s) {
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string blockerLine(std::string_view what, std::string_view lastSafeState, std::string_view nextAction) {
  std::string s = "BLOCKER: ";
  s += withoutFinalPeriod(what);
  s += ". Last safe state: ";
  s += withoutFinalPeriod(lastSafeState);
  s += ". Next action: ";
  s += withoutFinalPeriod(nextAction);
  s += '.';
  return s;
}

std::string blockerFor(const Event& stop, std::string_view step, std::string_view keptAt) {
  std::string what =
      "step '" + std::string(step) + "' stopped by " + std::string(codeName(stop.code)) + ": " + stop.message;
  std::string kept = "the step's output and logs are kept in " + std::string(keptAt) + "; nothing of it was published";
  std::string next;
  switch (stop.code) {
    case ErrorCode::LoopDetected:
      next = "read the step's log for the repeated call, fix the agent's prompt or its tools, then rerun";
      break;
    case ErrorCode::BudgetExceeded:
      next = "narrow the step, or raise spec.limits (or the step's limits) if the work needs it, then rerun";
      break;
    case ErrorCode::BreakerOpen:
      next =
          "check the model provider and the lane's baseUrl and apiKeyEnv, then rerun; an idempotent "
          "step with a fallbackLane is rerouted instead";
      break;
    default: next = "read the step's log, then rerun";
  }
  return blockerLine(what, kept, next);
}

}  // namespace lw::guard
