#include <doctest/doctest.h>

#include <stdexcept>

#include "guard/circuit_breaker.h"

using namespace lw;
using namespace lw::guard;
using namespace std::chrono_literals;

namespace {

// Five counted failures, one per second: opens a default breaker.
std::vector<Event> failFive(CircuitBreaker& b, ManualClock& clock) {
  std::vector<Event> all;
  for (int i = 0; i < 5; ++i) {
    Permit p = b.acquire();
    REQUIRE(p.granted());
    for (auto& e : p.failed("HTTP 500")) all.push_back(e);
    clock.advance(1s);
  }
  return all;
}

bool has(const std::vector<Event>& events, EventKind k) {
  for (const auto& e : events)
    if (e.kind == k) return true;
  return false;
}

}  // namespace

TEST_CASE("breaker: 5 failures within 60 s open it") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  for (int i = 0; i < 4; ++i) {
    Permit p = b.acquire();
    CHECK(p.failed("timeout").empty());
  }
  CHECK(b.state() == BreakerState::Closed);
  Permit p = b.acquire();
  auto events = p.failed("HTTP 503");
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == EventKind::Open);
  CHECK(events[0].code == ErrorCode::BreakerOpen);
  CHECK(events[0].message == "lane 'primary' opened (cycle 1): 5 failures within 60 s, the last: HTTP 503");
  CHECK(b.state() == BreakerState::Open);
  CHECK(b.openCycles() == 1);
  Permit refused = b.acquire();
  CHECK_FALSE(refused.granted());
  REQUIRE(refused.refusal());
  CHECK(refused.refusal()->code == ErrorCode::BreakerOpen);
  CHECK(refused.refusal()->message == "lane 'primary' is open after repeated failures; next probe in 30 s");
}

TEST_CASE("breaker: failures spread over more than the window do not open it") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  for (int i = 0; i < 20; ++i) {
    Permit p = b.acquire();
    REQUIRE(p.granted());
    CHECK(p.failed("HTTP 500").empty());
    clock.advance(15s);  // 4 in any 60 s
  }
  CHECK(b.state() == BreakerState::Closed);
}

TEST_CASE("breaker: successes and non-retriable answers are not failures") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  for (int i = 0; i < 10; ++i) {
    b.acquire().nonRetriable();
    b.acquire().succeeded();
  }
  CHECK(b.state() == BreakerState::Closed);
}

TEST_CASE("breaker: after the cooldown exactly one probe, its success closes") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  failFive(b, clock);
  clock.advance(28s);  // 29 s since opening
  CHECK_FALSE(b.acquire().granted());
  clock.advance(1s);
  Permit probe = b.acquire();
  REQUIRE(probe.granted());
  CHECK(probe.probe());
  CHECK(b.state() == BreakerState::HalfOpen);
  Permit second = b.acquire();
  CHECK_FALSE(second.granted());
  CHECK(second.refusal()->message == "lane 'primary' is half-open and its one probe call is in flight");
  auto events = probe.succeeded();
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == EventKind::Close);
  CHECK(b.state() == BreakerState::Closed);
  Permit after = b.acquire();
  CHECK(after.granted());
  CHECK_FALSE(after.probe());
}

TEST_CASE("breaker: a failed probe re-opens it for another cooldown, and 2 cycles escalate") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  auto first = failFive(b, clock);
  CHECK(has(first, EventKind::Open));
  CHECK_FALSE(has(first, EventKind::Escalate));
  clock.advance(30s);
  Permit probe = b.acquire();
  REQUIRE(probe.probe());
  auto events = probe.failed("timeout");
  CHECK(b.state() == BreakerState::Open);
  CHECK(b.openCycles() == 2);
  REQUIRE(events.size() == 2);
  CHECK(events[0].kind == EventKind::Open);
  CHECK(events[0].message == "lane 'primary' opened (cycle 2): the probe call failed: timeout");
  CHECK(events[1].kind == EventKind::Escalate);
  CHECK(events[1].message == "lane 'primary' opened 2 times; it is given up for this run");
  CHECK(b.escalated());
  clock.advance(1h);  // escalated lanes are not probed again
  Permit later = b.acquire();
  CHECK_FALSE(later.granted());
  CHECK(later.refusal()->message == "lane 'primary' opened 2 times and was given up for this run");
}

TEST_CASE("breaker: escalation after cycles that closed in between") {
  ManualClock clock;
  BreakerGuardrail g;
  g.escalateAfterCycles = 3;
  CircuitBreaker b("primary", g, clock);
  for (int cycle = 1; cycle <= 3; ++cycle) {
    auto events = failFive(b, clock);
    CHECK(b.openCycles() == cycle);
    CHECK(has(events, EventKind::Escalate) == (cycle == 3));
    clock.advance(30s);
    Permit probe = b.acquire();
    if (cycle < 3) {
      REQUIRE(probe.probe());
      CHECK(has(probe.succeeded(), EventKind::Close));
    } else {
      CHECK_FALSE(probe.granted());
    }
  }
}

TEST_CASE("breaker: the probe flag is released after a 401, and the next cooldown probes again") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  failFive(b, clock);
  clock.advance(30s);
  Permit probe = b.acquire();
  REQUIRE(probe.probe());
  CHECK(probe.nonRetriable().empty());
  CHECK(b.state() == BreakerState::Open);
  CHECK(b.openCycles() == 1);          // a wrong request says nothing about the lane's health
  CHECK_FALSE(b.acquire().granted());  // a fresh cooldown
  clock.advance(30s);
  Permit again = b.acquire();
  REQUIRE(again.granted());
  CHECK(again.probe());
  CHECK(has(again.succeeded(), EventKind::Close));
}

TEST_CASE("breaker: the probe flag is released on every path") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  failFive(b, clock);
  clock.advance(30s);
  SUBCASE("an exception unwinds past the permit") {
    try {
      Permit probe = b.acquire();
      REQUIRE(probe.probe());
      throw std::runtime_error("parse failure");
    } catch (const std::runtime_error&) {}
  }
  SUBCASE("a permit moved and dropped") {
    Permit probe = b.acquire();
    Permit moved = std::move(probe);
    CHECK_FALSE(probe.granted());
    { Permit sink = std::move(moved); }
  }
  SUBCASE("a permit overwritten by assignment") {
    Permit probe = b.acquire();
    REQUIRE(probe.probe());
    probe = Permit();
  }
  CHECK(b.state() == BreakerState::Open);
  clock.advance(30s);
  CHECK(b.acquire().probe());
}

TEST_CASE("breaker: a permit settles once, late answers of calls from before the opening are ignored") {
  ManualClock clock;
  CircuitBreaker b("primary", BreakerGuardrail{}, clock);
  Permit early = b.acquire();
  failFive(b, clock);
  CHECK(early.failed("late timeout").empty());
  CHECK(early.succeeded().empty());
  clock.advance(30s);
  Permit probe = b.acquire();
  REQUIRE(probe.probe());
  CHECK(has(probe.succeeded(), EventKind::Close));
  CHECK(probe.failed("again").empty());  // already settled
  CHECK(b.state() == BreakerState::Closed);
}
