// A step's `escalate:` (docs/taskpack.md, "Escalation"): which stops of the
// step may have it re-run once at a higher isolation level, and which
// level. Whether a re-run happens is decided after the step
// (pipeline/step/escalation_plan.h); this is only what the taskpack wrote.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "policy/model/vocabulary.h"

namespace lw {

// What stopped a step, in the words of its guardrail codes. TIMEOUT: the
// step ran past its wall time.
enum class EscalationTrigger { BreakerOpen, LoopDetected, BudgetExceeded, Timeout };
inline constexpr std::array kAllEscalationTriggers = {EscalationTrigger::BreakerOpen, EscalationTrigger::LoopDetected,
                                                      EscalationTrigger::BudgetExceeded, EscalationTrigger::Timeout};

// "BREAKER_OPEN", "LOOP_DETECTED", "BUDGET_EXCEEDED", "TIMEOUT".
std::string_view toString(EscalationTrigger t);
std::optional<EscalationTrigger> parseEscalationTrigger(std::string_view s);

struct EscalateSpec {
  // The stops that trigger it, besides the implicit one (the lane's breaker
  // opened escalateAfterCycles times in the step), which always does.
  std::vector<EscalationTrigger> on;
  std::optional<Isolation> to;  // omitted: the level above the step's
  Location location;            // of the `escalate:` mapping
  Location toLocation;          // of `to:`, when given
};

// The level above `level`; nullopt for L3, the highest.
std::optional<Isolation> levelAbove(Isolation level);

// True when `a` separates a step more than `b`.
inline bool isAbove(Isolation a, Isolation b) { return static_cast<int>(a) > static_cast<int>(b); }

}  // namespace lw
