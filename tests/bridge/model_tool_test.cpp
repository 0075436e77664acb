#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "bridge/model_tool.h"
#include "scripted_lane_http.h"

using namespace lw;
using namespace lw::bridge;
using lw::test::ScriptedLaneHttp;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

Lane makeLane(const char* name, const char* url) {
  Lane l;
  l.name = name;
  l.baseUrl = url;
  l.model = "m";
  l.apiKeyEnv = "K";
  return l;
}

struct Lanes {
  guard::ManualClock clock;
  ScriptedLaneHttp primaryHttp, fallbackHttp;
  guard::CircuitBreaker primaryBreaker{"primary", BreakerGuardrail{}, clock};
  guard::CircuitBreaker fallbackBreaker{"backup", BreakerGuardrail{}, clock};
  LaneClient primary{makeLane("primary", "https://a.example/v1"), "k1", primaryHttp, primaryBreaker};
  LaneClient fallback{makeLane("backup", "https://b.example/v1"), "k2", fallbackHttp, fallbackBreaker};

  // Two open cycles of the primary lane: five failures, then a failed probe.
  void escalatePrimary(const Tool& tool) {
    primaryHttp.push(ScriptedLaneHttp::status(500), 6);
    for (int i = 0; i < 5; ++i) (void)call(tool);
    clock.advance(30s);
  }
  Result<ToolOutput> call(const Tool& tool, ToolContext* out = nullptr) {
    ToolContext ctx;
    ctx.step = "review/security";
    auto r = tool.handler(json::parse(R"({"messages":[{"role":"user","content":"q"}]})").as_object(), ctx);
    if (out) *out = ctx;
    return r;
  }
};

}  // namespace

TEST_CASE("model.complete: a completion with its lane and usage") {
  Lanes l;
  Tool t = modelCompleteTool(l.primary, nullptr);
  CHECK(t.modelCall);
  auto r = l.call(t);
  REQUIRE(r);
  CHECK(r->text == "hi");
  CHECK(r->structured.at("lane") == "primary");
}

TEST_CASE("model.complete: escalation stops a step that may not be rerouted") {
  Lanes l;
  Tool t = modelCompleteTool(l.primary, nullptr);
  l.escalatePrimary(t);
  ToolContext ctx;
  auto r = l.call(t, &ctx);  // the failing probe: the second open cycle
  REQUIRE_FALSE(r);
  REQUIRE(ctx.stop);
  CHECK(ctx.stop->code == ErrorCode::BreakerOpen);
  CHECK(ctx.stop->message == "model lane 'primary' was given up after 2 open cycles");
  bool escalated = false;
  for (const auto& e : ctx.events) escalated = escalated || e.kind == guard::EventKind::Escalate;
  CHECK(escalated);
  CHECK(l.fallbackHttp.requests.empty());
}

TEST_CASE("model.complete: an idempotent step is rerouted once to the fallback lane") {
  Lanes l;
  Tool t = modelCompleteTool(l.primary, &l.fallback);
  l.escalatePrimary(t);
  ToolContext ctx;
  auto r = l.call(t, &ctx);
  REQUIRE(r);  // the failed call was repeated on the fallback lane
  CHECK(r->structured.at("lane") == "backup");
  CHECK_FALSE(ctx.stop);
  REQUIRE_FALSE(ctx.events.empty());
  CHECK(ctx.events.back().message ==
        "step 'review/security' rerouted from lane 'primary' to its fallback lane 'backup' (the step is idempotent)");
  CHECK(l.fallbackHttp.requests.size() == 1);
  const std::size_t primaryCalls = l.primaryHttp.requests.size();
  REQUIRE(l.call(t));  // later calls go to the fallback directly
  CHECK(l.primaryHttp.requests.size() == primaryCalls);
  CHECK(l.fallbackHttp.requests.size() == 2);

  SUBCASE("the reroute is bounded: the fallback escalating stops the step") {
    l.fallbackHttp.push(ScriptedLaneHttp::status(502), 6);
    for (int i = 0; i < 5; ++i) CHECK_FALSE(l.call(t));
    l.clock.advance(30s);
    ToolContext last;
    CHECK_FALSE(l.call(t, &last));
    REQUIRE(last.stop);
    CHECK(last.stop->message == "model lane 'backup' was given up after 2 open cycles (after the one reroute)");
  }
}
