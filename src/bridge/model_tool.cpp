#include "bridge/model_tool.h"
#include "policy/model/tool_names.h"

#include <atomic>
#include <memory>

namespace lw::bridge {

namespace json = boost::json;

namespace {

ToolOutput toOutput(const Completion& c, const std::string& lane) {
  ToolOutput out;
  out.structured =
      json::object{{"text", c.text},
                   {"model", c.model},
                   {"stopReason", c.stopReason},
                   {"lane", lane},
                   {"usage", json::object{{"inputTokens", c.inputTokens}, {"outputTokens", c.outputTokens}}}};
  out.text = c.text;
  return out;
}

}  // namespace

Tool modelCompleteTool(LaneClient& primary, LaneClient* fallback) {
  Tool t;
  t.name = tools::kModelComplete;
  t.description = "A completion from this step's model lane (" + primary.lane().name + ", " + primary.lane().model +
                  "). The API key stays outside the sandbox.";
  t.inputSchema = completionRequestSchema();
  t.modelCall = true;
  auto rerouted = std::make_shared<std::atomic<bool>>(false);
  t.handler = [&primary, fallback, rerouted](const json::object& args, ToolContext& ctx) -> Result<ToolOutput> {
    CompletionRequest req = completionRequestFromArgs(args);
    LaneClient* lane = rerouted->load() ? fallback : &primary;
    LaneResult r = lane->complete(req);
    for (auto& e : r.events) ctx.events.push_back(std::move(e));
    if (r.completion) return toOutput(*r.completion, lane->lane().name);
    if (!lane->breaker().escalated()) return r.completion.error();
    Error last = r.completion.error();

    if (lane == &primary && fallback != nullptr && !rerouted->exchange(true)) {
      ctx.events.push_back({guard::EventKind::Escalate, ErrorCode::BreakerOpen,
                            "step '" + ctx.step + "' rerouted from lane '" + primary.lane().name +
                                "' to its fallback lane '" + fallback->lane().name + "' (the step is idempotent)",
                            primary.lane().name});
      LaneResult again = fallback->complete(req);
      for (auto& e : again.events) ctx.events.push_back(std::move(e));
      if (again.completion) return toOutput(*again.completion, fallback->lane().name);
      if (!fallback->breaker().escalated()) return again.completion.error();
      last = again.completion.error();
      lane = fallback;
    }
    ctx.stop = guard::Event{guard::EventKind::Stop, ErrorCode::BreakerOpen,
                            "model lane '" + lane->lane().name + "' was given up after " +
                                std::to_string(lane->breaker().openCycles()) + " open cycles" +
                                (lane == fallback ? " (after the one reroute)" : ""),
                            lane->lane().name};
    return last;
  };
  return t;
}

}  // namespace lw::bridge
