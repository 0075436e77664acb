// A step session with the built-in tools and a few test tools, driven line
// by line as a step would, with a manual clock.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "bridge/builtin_tools.h"
#include "bridge/session.h"
#include "guard/clock.h"

namespace lw::test {

struct SessionHarness {
  guard::ManualClock clock;
  Limits limits;
  guard::BudgetMeter budget{limits, clock};
  bridge::ToolRegistry registry;
  bridge::PendingFindings findings;
  std::vector<guard::Event> events;
  std::vector<guard::Event> stops;
  std::unique_ptr<bridge::Session> session;
  int nextId = 1;

  explicit SessionHarness(std::vector<std::string> grants = {"findings.report", "github.event", "echo"},
                          LoopGuardrail loop = {}, Limits l = {})
      : limits(l), budget(l, clock) {
    registry.add(bridge::findingsReportTool(findings));
    registry.add(bridge::githubEventTool(boost::json::parse(R"({"action":"opened","number":7})")));
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
    bridge::Tool secret = echo;
    secret.name = "github.issues.search";
    registry.add(secret);
    bridge::SessionOptions o;
    o.step = "review/security";
    o.grants = std::move(grants);
    o.loop = loop;
    o.onEvent = [this](const guard::Event& e) { events.push_back(e); };
    o.onStop = [this](const guard::Event& e) { stops.push_back(e); };
    session = std::make_unique<bridge::Session>(std::move(o), registry, budget, clock);
  }

  boost::json::value send(const std::string& line) {
    auto reply = session->handle(line);
    if (!reply) return nullptr;
    REQUIRE(reply->find('\n') == std::string::npos);
    return boost::json::parse(*reply);
  }
  boost::json::value request(const std::string& method, boost::json::value params = boost::json::object{}) {
    boost::json::object m{{"jsonrpc", "2.0"}, {"id", nextId++}, {"method", method}, {"params", params}};
    return send(boost::json::serialize(m));
  }
  boost::json::value call(const std::string& tool, boost::json::value args = boost::json::object{}) {
    return request("tools/call", boost::json::object{{"name", tool}, {"arguments", args}});
  }
};

}  // namespace lw::test
