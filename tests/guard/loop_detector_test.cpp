#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

#include "guard/canonical_json.h"
#include "guard/loop_detector.h"

using namespace lw;
using namespace lw::guard;
using namespace std::chrono_literals;

namespace {

std::string args(const char* json) { return canonicalJson(boost::json::parse(json)); }

}  // namespace

TEST_CASE("canonical json: key order and whitespace do not matter, values do") {
  CHECK(args(R"({"b":1,"a":{"y":[1,2],"x":null}})") == args(R"({ "a" : {"x":null, "y":[1, 2]}, "b":1 })"));
  CHECK(args(R"({"a":[1,2]})") != args(R"({"a":[2,1]})"));
  CHECK(args(R"({"a":"1"})") != args(R"({"a":1})"));
  CHECK(canonicalJson(boost::json::parse(R"({"k\"ey":"v\n"})")) == R"({"k\"ey":"v\n"})");
}

TEST_CASE("fingerprint: stable 16 hex digits") {
  CHECK(fingerprint("") == "cbf29ce484222325");
  CHECK(fingerprint("a") == "af63dc4c8601ec8c");
  CHECK(fingerprint("a") != fingerprint("b"));
}

TEST_CASE("loop detector: same call warns at 3 and 4, stops at 5 within the window") {
  ManualClock clock;
  LoopDetector d(LoopGuardrail{}, clock);
  const std::string a = args(R"({"q":"x"})");
  for (int i = 1; i <= 2; ++i) {
    auto r = d.record("github.event", a);
    CHECK_FALSE(r.stop);
    CHECK(r.events.empty());
    clock.advance(10s);
  }
  auto third = d.record("github.event", a);
  CHECK_FALSE(third.stop);
  REQUIRE(third.events.size() == 1);
  CHECK(third.events[0].kind == EventKind::Warn);
  CHECK(third.events[0].code == ErrorCode::LoopDetected);
  CHECK(third.events[0].message ==
        "github.event called 3 times with the same arguments within 60 s (the step is stopped at 5)");
  auto fourth = d.record("github.event", a);
  CHECK_FALSE(fourth.stop);
  CHECK(fourth.events.at(0).kind == EventKind::Warn);
  auto fifth = d.record("github.event", a);
  CHECK(fifth.stop);
  REQUIRE(fifth.events.size() == 1);
  CHECK(fifth.events[0].kind == EventKind::Stop);
  CHECK(fifth.events[0].message == "github.event called 5 times with the same arguments within 60 s");
}

TEST_CASE("loop detector: repeats outside the window and different arguments do not add up") {
  ManualClock clock;
  LoopDetector d(LoopGuardrail{}, clock);
  SUBCASE("spread over more than the window") {
    for (int i = 0; i < 10; ++i) {
      auto r = d.record("t", args("{}"));
      CHECK_FALSE(r.stop);
      CHECK(r.events.empty());
      clock.advance(30s);  // at most 2 in any 60 s
    }
  }
  SUBCASE("different arguments") {
    for (int i = 0; i < 10; ++i) {
      auto r = d.record("t", args(("{\"n\":" + std::to_string(i) + "}").c_str()));
      CHECK(r.events.empty());
    }
  }
  SUBCASE("same arguments, other tool") {
    for (int i = 0; i < 2; ++i) {
      CHECK(d.record("a", "{}").events.empty());
      CHECK(d.record("b", "{}").events.empty());
    }
  }
}

TEST_CASE("loop detector: a tool called 30 times is suspicious once, 50 stops") {
  ManualClock clock;
  LoopDetector d(LoopGuardrail{}, clock);
  int suspicious = 0;
  for (int i = 1; i <= 49; ++i) {
    auto r = d.record("model.complete", args(("{\"n\":" + std::to_string(i) + "}").c_str()));
    CHECK_FALSE(r.stop);
    for (const auto& e : r.events) {
      CHECK(e.kind == EventKind::Suspicious);
      CHECK(i == 30);
      CHECK(e.message == "model.complete called 30 times in this step (the step is stopped at 50)");
      ++suspicious;
    }
  }
  CHECK(suspicious == 1);
  auto r = d.record("model.complete", args(R"({"n":50})"));
  CHECK(r.stop);
  REQUIRE(r.events.size() == 1);
  CHECK(r.events[0].message == "model.complete called 50 times in this step (limit 50 per tool)");
  CHECK(d.callsOf("model.complete") == 50);
  CHECK(d.callsOf("other") == 0);
}

TEST_CASE("loop detector: thresholds come from spec.guardrails.loop") {
  ManualClock clock;
  LoopGuardrail g;
  g.warnRepeats = 2;
  g.stopRepeats = 3;
  g.windowSeconds = 5;
  g.suspiciousCallsPerTool = 4;
  g.maxCallsPerTool = 6;
  LoopDetector d(g, clock);
  CHECK(d.record("t", "{}").events.empty());
  CHECK(d.record("t", "{}").events.at(0).kind == EventKind::Warn);
  clock.advance(5s);  // the first two fall out of a 5 s window
  CHECK(d.record("t", "{}").events.empty());
  auto fourth = d.record("t", "{}");
  REQUIRE(fourth.events.size() == 2);
  CHECK(fourth.events[0].kind == EventKind::Warn);
  CHECK(fourth.events[1].kind == EventKind::Suspicious);
  CHECK(d.record("t", "{}").stop);  // third repeat within 5 s
}
