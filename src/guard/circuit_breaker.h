// The circuit breaker of one model lane (docs/taskpack.md, "Guardrails"): `failures` counted
// failures within `windowSeconds` open it; after `cooldownSeconds` exactly
// one probe call goes through; only the probe's success closes it, its
// failure re-opens it; a probe that ends any other way (a non-retriable 4xx,
// an exception) releases the probe flag and waits out a new cooldown.
// `escalateAfterCycles` openings escalate: the lane is given up for the run
// (every later call refused) and the caller decides on a reroute.
// Pure (injected clock); thread-safe, shared by every step on the lane. It
// must outlive its permits.
#pragma once

#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "guard/clock.h"
#include "guard/event.h"
#include "policy/model/taskpack.h"

namespace lw::guard {

enum class BreakerState { Closed, Open, HalfOpen };
std::string_view toString(BreakerState s);

class CircuitBreaker;

// Leave to make one call on the lane. Move-only. Settle it once with
// succeeded(), failed() or nonRetriable(); a permit destroyed unsettled
// (an exception, an early return) counts as nonRetriable(), so the probe
// flag is released on every path.
class Permit {
 public:
  Permit() = default;
  Permit(Permit&& other) noexcept;
  Permit& operator=(Permit&& other) noexcept;
  Permit(const Permit&) = delete;
  Permit& operator=(const Permit&) = delete;
  ~Permit();

  bool granted() const { return breaker_ != nullptr; }
  bool probe() const { return probe_; }
  // Why the call was refused (BREAKER_OPEN), when !granted().
  const std::optional<Event>& refusal() const { return refusal_; }

  // The events the settlement caused (open, close, escalate). A second
  // settlement, or one on a refused permit, does nothing.
  std::vector<Event> succeeded();
  // A counted failure: timeout, empty result, validation failure, 5xx, 429.
  std::vector<Event> failed(const std::string& why);
  // Neither: the lane answered but the request was wrong (400/401/403).
  std::vector<Event> nonRetriable();

 private:
  friend class CircuitBreaker;
  CircuitBreaker* breaker_ = nullptr;
  bool probe_ = false;
  std::optional<Event> refusal_;
};

class CircuitBreaker {
 public:
  CircuitBreaker(std::string lane, BreakerGuardrail config, const Clock& clock);

  // Closed: a normal permit. Open and the cooldown over: the one probe
  // permit (the breaker becomes half-open). Otherwise a refused permit
  // whose refusal says when to try again.
  Permit acquire();

  BreakerState state() const;
  // Times the breaker opened (from closed or after a failed probe).
  int openCycles() const;
  // True once openCycles() reached escalateAfterCycles.
  bool escalated() const;
  const std::string& lane() const { return lane_; }

 private:
  friend class Permit;
  enum class Settle { Success, Failure, NonRetriable };
  std::vector<Event> settle(bool probe, Settle how, const std::string& why);
  void openLocked(TimePoint now, const std::string& why, std::vector<Event>& events);

  std::string lane_;
  BreakerGuardrail config_;
  const Clock& clock_;
  mutable std::mutex mu_;
  BreakerState state_ = BreakerState::Closed;
  std::deque<TimePoint> failures_;
  TimePoint openedAt_{};
  int cycles_ = 0;
  bool escalated_ = false;
};

}  // namespace lw::guard
