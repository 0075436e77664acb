// Steady time behind an interface, so that every guardrail decision is pure
// and tests move time by hand instead of sleeping.
#pragma once

#include <chrono>
#include <mutex>

namespace lw::guard {

using TimePoint = std::chrono::steady_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic; never goes back.
  virtual TimePoint now() const = 0;
};

// std::chrono::steady_clock.
class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
};

// A clock that moves only when told to (tests, replays). Thread-safe.
class ManualClock final : public Clock {
 public:
  TimePoint now() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return now_;
  }
  void advance(std::chrono::steady_clock::duration d) {
    std::lock_guard<std::mutex> lock(mu_);
    now_ += d;
  }

 private:
  mutable std::mutex mu_;
  TimePoint now_{std::chrono::hours(1)};
};

}  // namespace lw::guard
