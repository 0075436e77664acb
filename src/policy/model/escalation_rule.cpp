#include "policy/model/escalation_rule.h"

namespace lw {

std::string_view toString(EscalationTrigger t) {
  switch (t) {
    case EscalationTrigger::BreakerOpen: return "BREAKER_OPEN";
    case EscalationTrigger::LoopDetected: return "LOOP_DETECTED";
    case EscalationTrigger::BudgetExceeded: return "BUDGET_EXCEEDED";
    case EscalationTrigger::Timeout: return "TIMEOUT";
  }
  return "?";
}

std::optional<EscalationTrigger> parseEscalationTrigger(std::string_view s) {
  for (EscalationTrigger t : kAllEscalationTriggers)
    if (toString(t) == s) return t;
  return std::nullopt;
}

std::optional<Isolation> levelAbove(Isolation level) {
  switch (level) {
    case Isolation::L1: return Isolation::L2;
    case Isolation::L2: return Isolation::L3;
    case Isolation::L3: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace lw
