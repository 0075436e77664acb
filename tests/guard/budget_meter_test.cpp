#include <doctest/doctest.h>

#include "guard/budget_meter.h"

using namespace lw;
using namespace lw::guard;
using namespace std::chrono_literals;

TEST_CASE("budget meter: the limit itself is allowed, one more stops") {
  ManualClock clock;
  Limits l;
  l.maxToolCalls = 3;
  l.maxModelCalls = 2;
  l.maxOutputBytes = 100;
  BudgetMeter m(l, clock);
  SUBCASE("tool calls") {
    for (int i = 0; i < 3; ++i) CHECK_FALSE(m.chargeToolCall());
    auto e = m.chargeToolCall();
    REQUIRE(e);
    CHECK(e->kind == EventKind::Stop);
    CHECK(e->code == ErrorCode::BudgetExceeded);
    CHECK(e->message == "tool calls budget exceeded: 4 calls (limit 3)");
  }
  SUBCASE("model calls") {
    CHECK_FALSE(m.chargeModelCall());
    CHECK_FALSE(m.chargeModelCall());
    CHECK(m.chargeModelCall()->message == "model calls budget exceeded: 3 calls (limit 2)");
  }
  SUBCASE("output bytes") {
    CHECK_FALSE(m.chargeOutputBytes(60));
    CHECK_FALSE(m.chargeOutputBytes(40));
    CHECK(m.chargeOutputBytes(1)->message == "output bytes budget exceeded: 101 bytes (limit 100)");
  }
  auto u = m.usage();
  CHECK(u.toolCalls + u.modelCalls + u.outputBytes > 0);
}

TEST_CASE("budget meter: wall time counts from construction and stops every charge") {
  ManualClock clock;
  Limits l;
  l.wallTimeMs = 1000;
  BudgetMeter m(l, clock);
  CHECK(m.deadline() == clock.now() + 1000ms);
  clock.advance(1000ms);
  CHECK_FALSE(m.checkWallTime());
  CHECK_FALSE(m.chargeToolCall());
  clock.advance(1ms);
  auto e = m.checkWallTime();
  REQUIRE(e);
  CHECK(e->message == "wall time budget exceeded: 1001 ms (limit 1000)");
  CHECK(m.chargeToolCall()->code == ErrorCode::BudgetExceeded);
  CHECK(m.chargeModelCall());
  CHECK(m.chargeOutputBytes(0));
  CHECK(m.usage().wallTime == 1001ms);
  CHECK(m.usage().toolCalls == 2);
}
