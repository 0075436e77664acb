#include <doctest/doctest.h>

#include "bridge/jsonrpc.h"
#include "session_harness.h"

using namespace lw;
using namespace lw::bridge;
using lw::test::SessionHarness;
namespace json = boost::json;
using namespace std::chrono_literals;

TEST_CASE("session: initialize answers the asked protocol revision, tools capability, server info") {
  SessionHarness h;
  auto r = h.request("initialize", json::object{{"protocolVersion", "2025-03-26"},
                                                {"capabilities", json::object{}},
                                                {"clientInfo", json::object{{"name", "t"}, {"version", "1"}}}});
  CHECK(r.at("id").as_int64() == 1);
  const auto& res = r.at("result");
  CHECK(res.at("protocolVersion") == "2025-03-26");
  CHECK(res.at("capabilities").at("tools").is_object());
  CHECK(res.at("serverInfo").at("name") == "loopwright-bridge");
  SUBCASE("an unknown revision gets the newest") {
    auto r2 = h.request("initialize", json::object{{"protocolVersion", "1999-01-01"}});
    CHECK(r2.at("result").at("protocolVersion") == "2025-11-25");
  }
  CHECK(h.send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").is_null());
  CHECK(h.request("ping").at("result").as_object().empty());
}

TEST_CASE("session: tools/list shows only the granted tools, with their input schema") {
  SessionHarness h({"github.event", "echo", "not.registered"});
  auto r = h.request("tools/list");
  const auto& tools = r.at("result").at("tools").as_array();
  REQUIRE(tools.size() == 2);
  CHECK(tools[0].at("name") == "echo");
  CHECK(tools[1].at("name") == "github.event");
  CHECK(tools[1].at("inputSchema").at("type") == "object");
  CHECK(tools[1].at("description").as_string().size() > 0);
}

TEST_CASE("session: grants of a step") {
  Step s;
  s.tools = {"github.pulls.diff", "github.event"};
  CHECK(grantsFor(s) == std::vector<std::string>{"findings.report", "github.event", "github.pulls.diff"});
  s.lane = "primary";
  CHECK(grantsFor(s) ==
        std::vector<std::string>{"findings.report", "github.event", "model.complete", "github.pulls.diff"});
}

TEST_CASE("session: unknown and ungranted tools are refused with the missing grant named") {
  SessionHarness h;
  auto r = h.call("github.issues.search", json::object{{"q", "dup"}});
  const auto& err = r.at("error");
  CHECK(err.at("code").as_int64() == kToolNotGranted);
  CHECK(err.at("message") ==
        "tool 'github.issues.search' is not granted to step 'review/security'; missing grant: github.issues.search");
  CHECK(err.at("data").at("code") == "TOOL_NOT_GRANTED");
  CHECK(err.at("data").at("missingGrant") == "github.issues.search");
  CHECK(err.at("data").at("hint") == "grant it in the taskpack: tools: [github.issues.search] on this step");
  auto u = h.call("no.such.tool");
  CHECK(u.at("error").at("message") == "unknown tool 'no.such.tool'; missing grant: no.such.tool");
  auto recs = h.session->records();
  REQUIRE(recs.size() == 2);
  CHECK(recs[0].outcome == CallOutcome::NotGranted);
  CHECK(h.stops.empty());
}

TEST_CASE("session: github.event returns the event, structured and as text") {
  SessionHarness h;
  auto r = h.call("github.event");
  const auto& res = r.at("result");
  CHECK(res.at("isError") == false);
  CHECK(res.at("structuredContent").at("number") == 7);
  CHECK(json::parse(res.at("content").at(0).at("text").as_string()) == res.at("structuredContent"));
  auto recs = h.session->records();
  REQUIRE(recs.size() == 1);
  CHECK(recs[0].tool == "github.event");
  CHECK(recs[0].outcome == CallOutcome::Ok);
  CHECK(recs[0].argsDigest.size() == 16);
}

TEST_CASE("session: findings.report validates against the findings schema and accumulates") {
  SessionHarness h;
  auto ok = h.call("findings.report", json::parse(R"({"findings":[
      {"ruleId":"security/sql","severity":"error","message":"injection","path":"a.c","line":3}]})"));
  CHECK(ok.at("result").at("structuredContent").at("accepted") == 1);
  auto bad =
      h.call("findings.report", json::parse(R"({"findings":[{"ruleId":"x","severity":"fatal","message":"m"}]})"));
  CHECK(bad.at("error").at("code").as_int64() == kInvalidParams);
  CHECK(bad.at("error").at("data").at("path") == "arguments.findings[0].severity");
  auto more =
      h.call("findings.report", json::parse(R"({"findings":[{"ruleId":"b","severity":"notice","message":"m2"}]})"));
  CHECK(more.at("result").at("structuredContent").at("pending") == 2);
  auto f = h.findings.snapshot();
  REQUIRE(f.size() == 2);
  CHECK(f[0].step == "review/security");
  CHECK(f[0].severity == Severity::Error);
  CHECK(f[0].line == 3);
  CHECK(h.session->records()[1].outcome == CallOutcome::Invalid);
  CHECK(h.budget.usage().outputBytes > 100);
}

TEST_CASE("session: the same call five times stops the step with LOOP_DETECTED") {
  SessionHarness h;
  for (int i = 1; i <= 4; ++i) {
    auto r = h.call("echo", json::object{{"q", "same"}});
    CHECK(r.as_object().contains("result"));
    h.clock.advance(1s);
  }
  REQUIRE(h.events.size() == 2);  // warnings at 3 and 4
  CHECK(h.events[0].kind == guard::EventKind::Warn);
  CHECK(h.stops.empty());
  auto r = h.call("echo", json::object{{"q", "same"}});
  const auto& err = r.at("error");
  CHECK(err.at("code").as_int64() == kGuardrailStop);
  CHECK(err.at("data").at("code") == "LOOP_DETECTED");
  CHECK(err.at("message") == "LOOP_DETECTED: echo called 5 times with the same arguments within 60 s");
  REQUIRE(h.stops.size() == 1);
  CHECK(h.stops[0].code == ErrorCode::LoopDetected);
  CHECK(h.session->stopped());
  SUBCASE("every later call is refused, and onStop is not called again") {
    auto later = h.call("github.event");
    CHECK(later.at("error").at("data").at("code") == "LOOP_DETECTED");
    CHECK(later.at("error").at("message").as_string().starts_with("LOOP_DETECTED: the step was stopped: "));
    CHECK(h.stops.size() == 1);
    // Counted apart: how many arrive before the kill lands is timing.
    CHECK(h.session->records().size() == 5);
    CHECK(h.session->refusedAfterStop() == 1);
  }
  SUBCASE("tools/list still answers") { CHECK(h.request("tools/list").as_object().contains("result")); }
}

TEST_CASE("session: a refused tool called in a loop is still a loop") {
  SessionHarness h;
  for (int i = 0; i < 4; ++i)
    CHECK(h.call("github.issues.search").at("error").at("code").as_int64() == kToolNotGranted);
  CHECK(h.call("github.issues.search").at("error").at("data").at("code") == "LOOP_DETECTED");
}

TEST_CASE("session: budgets stop the step with BUDGET_EXCEEDED") {
  Limits l;
  l.maxToolCalls = 2;
  SessionHarness h({"echo"}, {}, l);
  h.call("echo", json::object{{"n", 1}});
  h.call("echo", json::object{{"n", 2}});
  auto r = h.call("echo", json::object{{"n", 3}});
  CHECK(r.at("error").at("data").at("code") == "BUDGET_EXCEEDED");
  CHECK(r.at("error").at("message") == "BUDGET_EXCEEDED: tool calls budget exceeded: 3 calls (limit 2)");
  REQUIRE(h.stops.size() == 1);
  SUBCASE("wall time") {
    SessionHarness w({"echo"});
    w.clock.advance(std::chrono::milliseconds(Limits{}.wallTimeMs + 1));
    CHECK(w.call("echo").at("error").at("data").at("code") == "BUDGET_EXCEEDED");
  }
}

TEST_CASE("session: malformed input gets JSON-RPC errors, never a crash") {
  SessionHarness h;
  CHECK(h.send("{\"jsonrpc\":\"2.0\",").at("error").at("code").as_int64() == kParseError);
  CHECK(h.send("").is_null());
  CHECK(h.request("resources/list").at("error").at("code").as_int64() == kMethodNotFound);
  CHECK(h.request("tools/call", json::object{}).at("error").at("code").as_int64() == kInvalidParams);
  CHECK(h.request("tools/call", json::object{{"name", "echo"}, {"arguments", json::array{}}})
            .at("error")
            .at("code")
            .as_int64() == kInvalidParams);
  CHECK(h.request("tools/call", json::array{}).at("error").at("code").as_int64() == kInvalidParams);
  auto big = json::parse(h.session->tooLarge(2u << 20));
  CHECK(big.at("error").at("code").as_int64() == kMessageTooLarge);
  CHECK(big.at("id").is_null());
  std::string bytes = "\xff\xfe{\"a\":";
  CHECK(h.send(bytes).at("error").at("code").as_int64() == kParseError);
}

TEST_CASE("session: handler errors are tool errors, guardrail-coded errors and stops are JSON-RPC errors") {
  SessionHarness h({"fails", "open", "stops", "throws"});
  auto add = [&](const char* name, std::function<Result<ToolOutput>(ToolContext&)> f) {
    Tool t;
    t.name = name;
    t.inputSchema = json::object{{"type", "object"}};
    t.handler = [f](const json::object&, ToolContext& ctx) { return f(ctx); };
    h.registry.add(t);
  };
  add("fails", [](ToolContext&) -> Result<ToolOutput> {
    return makeError(ErrorCode::IoError, "lane 'p': HTTP 500", "retriable");
  });
  add("open", [](ToolContext& ctx) -> Result<ToolOutput> {
    ctx.events.push_back({guard::EventKind::Open, ErrorCode::BreakerOpen, "opened", "p"});
    return makeError(ErrorCode::BreakerOpen, "lane 'p' is open", "", "p");
  });
  add("throws", [](ToolContext&) -> Result<ToolOutput> { throw std::runtime_error("boom"); });
  add("stops", [](ToolContext& ctx) -> Result<ToolOutput> {
    ctx.stop = guard::Event{guard::EventKind::Stop, ErrorCode::BreakerOpen, "lane given up", "p"};
    return makeError(ErrorCode::IoError, "x");
  });
  auto f = h.call("fails");
  CHECK(f.at("result").at("isError") == true);
  CHECK(f.at("result").at("content").at(0).at("text") == "error[IO_ERROR]: lane 'p': HTTP 500\nhint: retriable");
  auto o = h.call("open");
  CHECK(o.at("error").at("code").as_int64() == kBreakerOpen);
  CHECK(o.at("error").at("data").at("code") == "BREAKER_OPEN");
  CHECK(h.stops.empty());
  REQUIRE(h.events.size() == 1);
  CHECK(h.events[0].kind == guard::EventKind::Open);
  auto t = h.call("throws");
  CHECK(t.at("result").at("content").at(0).at("text") == "error[INTERNAL_ERROR]: throws failed: boom");
  auto s = h.call("stops");
  CHECK(s.at("error").at("message") == "BREAKER_OPEN: lane given up");
  REQUIRE(h.stops.size() == 1);
  auto recs = h.session->records();
  REQUIRE(recs.size() == 4);
  CHECK(recs[0].outcome == CallOutcome::ToolError);
  CHECK(recs[1].outcome == CallOutcome::Refused);
  CHECK(recs[3].outcome == CallOutcome::Refused);
}
