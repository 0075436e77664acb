#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "bridge/step_bridge.h"
#include "scripted_lane_http.h"

using namespace lw;
using namespace lw::bridge;
using lw::test::ScriptedLaneHttp;
namespace json = boost::json;

namespace {

Taskpack taskpack() {
  Taskpack tp;
  Lane primary;
  primary.name = "primary";
  primary.baseUrl = "https://a.example/v1";
  primary.model = "m";
  primary.apiKeyEnv = "PRIMARY_KEY";
  primary.fallbackLane = "backup";
  Lane backup = primary;
  backup.name = "backup";
  backup.apiKeyEnv = "BACKUP_KEY";
  backup.fallbackLane.reset();
  Lane keyless = backup;
  keyless.name = "keyless";
  keyless.apiKeyEnv = "MISSING_KEY";
  tp.lanes = {primary, backup, keyless};
  return tp;
}

Environment env() {
  return Environment(std::map<std::string, std::string>{{"PRIMARY_KEY", "k1"}, {"BACKUP_KEY", "k2"}});
}

}  // namespace

TEST_CASE("lane pool: routes with a fallback only for idempotent steps, a missing key fails its steps only") {
  guard::ManualClock clock;
  ScriptedLaneHttp http;
  LanePool pool(taskpack(), env(), http, clock);
  Step s;
  auto none = pool.routeFor(s);
  REQUIRE(none);
  CHECK(none->lane == nullptr);
  s.lane = "primary";
  auto plain = pool.routeFor(s);
  REQUIRE(plain);
  CHECK(plain->lane->lane().name == "primary");
  CHECK(plain->fallback == nullptr);
  s.idempotent = true;
  auto idem = pool.routeFor(s);
  REQUIRE(idem);
  CHECK(idem->fallback->lane().name == "backup");
  CHECK(&idem->lane->breaker() == pool.breaker("primary"));  // one breaker per lane
  s.lane = "keyless";
  auto keyless = pool.routeFor(s);
  REQUIRE_FALSE(keyless);
  CHECK(keyless.error().message == "lane 'keyless': MISSING_KEY is not set");
  s.lane = "nope";
  CHECK(pool.routeFor(s).error().message == "no lane named 'nope' in spec.lanes");
}

TEST_CASE("step bridge: assembled tools, findings, records and the run-record JSON") {
  guard::ManualClock clock;
  ScriptedLaneHttp http;
  LanePool pool(taskpack(), env(), http, clock);
  Step step;
  step.name = "security";
  step.lane = "primary";
  std::vector<guard::Event> stops;
  StepBridgeOptions o;
  o.stepId = "review/security";
  o.grants = grantsFor(step);
  o.event = json::parse(R"({"action":"opened"})");
  o.route = *pool.routeFor(step);
  o.onStop = [&](const guard::Event& e) { stops.push_back(e); };
  StepBridge b(std::move(o), clock);
  auto call = [&](const std::string& tool, const std::string& args) {
    std::string line = R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
                       R"(","arguments":)" + args + "}}";
    return json::parse(*b.session().handle(line));
  };
  auto list = json::parse(*b.session().handle(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
  CHECK(list.at("result").at("tools").as_array().size() == 3);
  CHECK(call("model.complete", R"({"messages":[{"role":"user","content":"q"}]})")
            .at("result")
            .at("content")
            .at(0)
            .at("text") == "hi");
  CHECK(call("findings.report", R"({"findings":[{"ruleId":"r","severity":"notice","message":"m"}]})")
            .as_object()
            .contains("result"));
  CHECK(b.findings().size() == 1);
  CHECK(b.budget().usage().modelCalls == 1);
  CHECK(b.budget().usage().toolCalls == 2);
  auto records = b.records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].tool == "model.complete");
  CHECK(records[0].outcome == CallOutcome::Ok);
  CHECK(records[0].argsDigest.size() == 16);
  CHECK(records[0].events.empty());
  CHECK_FALSE(b.stopped());
}
