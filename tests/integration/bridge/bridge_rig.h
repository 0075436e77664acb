// A step's bridge as the pipeline would set it up: built-in tools, an echo
// tool, a model lane on the fake model server, a session and its server.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "bridge/builtin_tools.h"
#include "bridge/lane_http.h"
#include "bridge/model_tool.h"
#include "bridge/server.h"
#include "bridge/session.h"
#include "core/http_curl.h"
#include "guard/clock.h"
#include "support/fake_model.h"

namespace lw::test {

struct BridgeRig {
  FakeModel model;
  guard::SteadyClock clock;
  Limits limits;
  guard::BudgetMeter budget{limits, clock};
  bridge::ToolRegistry registry;
  bridge::PendingFindings findings;
  http::CurlTransport http{bridge::laneHttpPolicy()};
  guard::CircuitBreaker breaker{"primary", BreakerGuardrail{}, clock};
  std::unique_ptr<bridge::LaneClient> lane;
  std::unique_ptr<bridge::Session> session;
  std::vector<guard::Event> stops;
  std::mutex mu;

  BridgeRig() {
    Lane l;
    l.name = "primary";
    l.baseUrl = model.url();
    l.model = "fake-1";
    l.apiKeyEnv = "KEY";
    l.timeoutMs = 5000;
    lane = std::make_unique<bridge::LaneClient>(l, "sk-rig", http, breaker);
    registry.add(bridge::findingsReportTool(findings));
    registry.add(bridge::githubEventTool(boost::json::parse(R"({"action":"opened","pull_request":{"number":42}})")));
    registry.add(bridge::modelCompleteTool(*lane, nullptr));
    bridge::Tool echo;
    echo.name = "echo";
    echo.description = "echoes its arguments";
    echo.inputSchema = boost::json::object{{"type", "object"}};
    echo.handler = [](const boost::json::object& args, bridge::ToolContext&) -> Result<bridge::ToolOutput> {
      bridge::ToolOutput out;
      out.structured = args;
      return out;
    };
    registry.add(echo);
    bridge::Tool search = echo;
    search.name = "github.issues.search";
    registry.add(search);
    Step step;
    step.name = "security";
    step.lane = "primary";
    step.tools = {"echo"};
    bridge::SessionOptions o;
    o.step = "review/security";
    o.grants = bridge::grantsFor(step);
    o.onStop = [this](const guard::Event& e) {
      std::lock_guard<std::mutex> lock(mu);
      stops.push_back(e);
    };
    session = std::make_unique<bridge::Session>(std::move(o), registry, budget, clock);
  }
};

}  // namespace lw::test
