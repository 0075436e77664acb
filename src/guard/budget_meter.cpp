#include "guard/budget_meter.h"

#include <string>

namespace lw::guard {
namespace {

std::optional<Event> over(std::int64_t used, std::int64_t limit, const char* what, const char* unit) {
  if (used <= limit) return std::nullopt;
  return Event{EventKind::Stop, ErrorCode::BudgetExceeded,
               std::string(what) + " budget exceeded: " + std::to_string(used) + " " + unit + " (limit " +
                   std::to_string(limit) + ")",
               what};
}

}  // namespace

BudgetMeter::BudgetMeter(Limits limits, const Clock& clock) : limits_(limits), clock_(clock), start_(clock.now()) {}

std::optional<Event> BudgetMeter::wallTimeLocked() const {
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now() - start_);
  return over(elapsed.count(), limits_.wallTimeMs, "wall time", "ms");
}

std::optional<Event> BudgetMeter::chargeToolCall() {
  std::lock_guard<std::mutex> lock(mu_);
  ++used_.toolCalls;
  if (auto e = wallTimeLocked()) return e;
  return over(used_.toolCalls, limits_.maxToolCalls, "tool calls", "calls");
}

std::optional<Event> BudgetMeter::chargeModelCall() {
  std::lock_guard<std::mutex> lock(mu_);
  ++used_.modelCalls;
  if (auto e = wallTimeLocked()) return e;
  return over(used_.modelCalls, limits_.maxModelCalls, "model calls", "calls");
}

std::optional<Event> BudgetMeter::chargeOutputBytes(std::int64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  used_.outputBytes += bytes;
  if (auto e = wallTimeLocked()) return e;
  return over(used_.outputBytes, limits_.maxOutputBytes, "output bytes", "bytes");
}

std::optional<Event> BudgetMeter::checkWallTime() const {
  std::lock_guard<std::mutex> lock(mu_);
  return wallTimeLocked();
}

BudgetUsage BudgetMeter::usage() const {
  std::lock_guard<std::mutex> lock(mu_);
  BudgetUsage u = used_;
  u.wallTime = std::chrono::duration_cast<std::chrono::milliseconds>(clock_.now() - start_);
  return u;
}

}  // namespace lw::guard
