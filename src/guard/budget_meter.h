// Budgets of one step (docs/taskpack.md, "Limits"): wall time, model calls, tool calls,
// output bytes. Exceeding any one stops the step with BUDGET_EXCEEDED.
// Pure (injected clock) and thread-safe: the bridge charges calls while the
// pipeline charges the step's captured output.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

#include "guard/clock.h"
#include "guard/event.h"
#include "policy/model/taskpack.h"

namespace lw::guard {

struct BudgetUsage {
  std::int64_t modelCalls = 0;
  std::int64_t toolCalls = 0;
  std::int64_t outputBytes = 0;
  std::chrono::milliseconds wallTime{0};
};

class BudgetMeter {
 public:
  // The wall-time budget starts now.
  BudgetMeter(Limits limits, const Clock& clock);

  // Each charge counts, then returns a Stop event when the wall time is past
  // its budget or the charged counter is now above its limit (the limit
  // itself is allowed: maxToolCalls 1000 lets 1000 calls through).
  std::optional<Event> chargeToolCall();
  std::optional<Event> chargeModelCall();
  std::optional<Event> chargeOutputBytes(std::int64_t bytes);
  // Only the wall time.
  std::optional<Event> checkWallTime() const;

  BudgetUsage usage() const;
  // When the wall-time budget ends: the pipeline's deadline for the step.
  TimePoint deadline() const { return start_ + std::chrono::milliseconds(limits_.wallTimeMs); }
  const Limits& limits() const { return limits_; }

 private:
  std::optional<Event> wallTimeLocked() const;

  Limits limits_;
  const Clock& clock_;
  TimePoint start_;
  mutable std::mutex mu_;
  BudgetUsage used_;
};

}  // namespace lw::guard
