#include "guard/circuit_breaker.h"

#include <utility>

namespace lw::guard {

std::string_view toString(BreakerState s) {
  switch (s) {
    case BreakerState::Closed: return "closed";
    case BreakerState::Open: return "open";
    case BreakerState::HalfOpen: return "half-open";
  }
  return "unknown";
}

Permit::Permit(Permit&& other) noexcept
    : breaker_(std::exchange(other.breaker_, nullptr)),
      probe_(std::exchange(other.probe_, false)),
      refusal_(std::move(other.refusal_)) {}

Permit& Permit::operator=(Permit&& other) noexcept {
  if (this != &other) {
    if (breaker_) (void)nonRetriable();
    breaker_ = std::exchange(other.breaker_, nullptr);
    probe_ = std::exchange(other.probe_, false);
    refusal_ = std::move(other.refusal_);
  }
  return *this;
}

Permit::~Permit() {
  if (breaker_) (void)nonRetriable();
}

std::vector<Event> Permit::succeeded() {
  if (!breaker_) return {};
  return std::exchange(breaker_, nullptr)->settle(probe_, CircuitBreaker::Settle::Success, "");
}

std::vector<Event> Permit::failed(const std::string& why) {
  if (!breaker_) return {};
  return std::exchange(breaker_, nullptr)->settle(probe_, CircuitBreaker::Settle::Failure, why);
}

std::vector<Event> Permit::nonRetriable() {
  if (!breaker_) return {};
  return std::exchange(breaker_, nullptr)->settle(probe_, CircuitBreaker::Settle::NonRetriable, "");
}

CircuitBreaker::CircuitBreaker(std::string lane, BreakerGuardrail config, const Clock& clock)
    : lane_(std::move(lane)), config_(config), clock_(clock) {}

Permit CircuitBreaker::acquire() {
  std::lock_guard<std::mutex> lock(mu_);
  Permit p;
  const TimePoint now = clock_.now();
  const auto cooldown = std::chrono::seconds(config_.cooldownSeconds);
  std::string refusal;
  if (escalated_) {
    refusal = "lane '" + lane_ + "' opened " + std::to_string(cycles_) + " times and was given up for this run";
  } else if (state_ == BreakerState::Closed) {
    p.breaker_ = this;
    return p;
  } else if (state_ == BreakerState::Open && now - openedAt_ >= cooldown) {
    state_ = BreakerState::HalfOpen;
    p.breaker_ = this;
    p.probe_ = true;
    return p;
  } else if (state_ == BreakerState::Open) {
    auto left = std::chrono::ceil<std::chrono::seconds>(cooldown - (now - openedAt_));
    refusal =
        "lane '" + lane_ + "' is open after repeated failures; next probe in " + std::to_string(left.count()) + " s";
  } else {
    refusal = "lane '" + lane_ + "' is half-open and its one probe call is in flight";
  }
  p.refusal_ = Event{EventKind::Stop, ErrorCode::BreakerOpen, refusal, lane_};
  return p;
}

void CircuitBreaker::openLocked(TimePoint now, const std::string& why, std::vector<Event>& events) {
  state_ = BreakerState::Open;
  openedAt_ = now;
  failures_.clear();
  ++cycles_;
  events.push_back({EventKind::Open, ErrorCode::BreakerOpen,
                    "lane '" + lane_ + "' opened (cycle " + std::to_string(cycles_) + "): " + why, lane_});
  if (!escalated_ && cycles_ >= config_.escalateAfterCycles) {
    escalated_ = true;
    events.push_back({EventKind::Escalate, ErrorCode::BreakerOpen,
                      "lane '" + lane_ + "' opened " + std::to_string(cycles_) + " times; it is given up for this run",
                      lane_});
  }
}

std::vector<Event> CircuitBreaker::settle(bool probe, Settle how, const std::string& why) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Event> events;
  const TimePoint now = clock_.now();
  if (probe) {
    if (state_ != BreakerState::HalfOpen) return events;
    switch (how) {
      case Settle::Success:
        state_ = BreakerState::Closed;
        failures_.clear();
        events.push_back(
            {EventKind::Close, ErrorCode::BreakerOpen, "lane '" + lane_ + "' closed: the probe call succeeded", lane_});
        break;
      case Settle::Failure: openLocked(now, "the probe call failed: " + why, events); break;
      case Settle::NonRetriable:
        // Not the lane's health, so not a new cycle; but no proof of health
        // either: wait another cooldown, then probe again.
        state_ = BreakerState::Open;
        openedAt_ = now;
        break;
    }
    return events;
  }
  // Calls let through while closed that end after the breaker opened no
  // longer say anything about the lane's present state.
  if (state_ != BreakerState::Closed || how != Settle::Failure) return events;
  const auto window = std::chrono::seconds(config_.windowSeconds);
  while (!failures_.empty() && now - failures_.front() >= window) failures_.pop_front();
  failures_.push_back(now);
  if (static_cast<int>(failures_.size()) >= config_.failures)
    openLocked(now,
               std::to_string(failures_.size()) + " failures within " + std::to_string(config_.windowSeconds) +
                   " s, the last: " + why,
               events);
  return events;
}

BreakerState CircuitBreaker::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_;
}

int CircuitBreaker::openCycles() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cycles_;
}

bool CircuitBreaker::escalated() const {
  std::lock_guard<std::mutex> lock(mu_);
  return escalated_;
}

}  // namespace lw::guard
