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

std::string blockerLine(std::string_view what, std::string_view lastSafeState,
                        std::string_view nextAction) {
  std::string s = "BLOCKER: ";
  s += withoutFinalPeriod(what);
  s += ". Last safe state: ";
  s += withoutFinalPeriod(lastSafeState);
  s += ". Next action: ";
  s += withoutFinalPeriod(nextAction);
  s += '.';
  return s;
}

}  // namespace lw::guard
