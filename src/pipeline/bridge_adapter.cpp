#include "pipeline/bridge_adapter.h"

#include <chrono>
#include <map>

#include "bridge/builtin_tools.h"
#include "bridge/curl_lane_http.h"
#include "bridge/lane_client.h"
#include "bridge/model_tool.h"
#include "bridge/server.h"
#include "bridge/session.h"
#include "bridge/tool_registry.h"
#include "guard/budget_meter.h"
#include "guard/circuit_breaker.h"
#include "guard/clock.h"

namespace lw::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// One lane as the run shares it: breaker and client live as long as the run.
struct RunLane {
  Lane lane;
  std::unique_ptr<guard::CircuitBreaker> breaker;
  std::unique_ptr<bridge::LaneClient> client;  // null when its key is missing
  std::string keyProblem;
};

}  // namespace

class LaneSet {
 public:
  LaneSet(const Taskpack& tp, const Environment& env) {
    for (const Lane& lane : tp.lanes) {
      RunLane rl;
      rl.lane = lane;
      rl.breaker = std::make_unique<guard::CircuitBreaker>(lane.name, tp.guardrails.breaker, clock_);
      auto key = bridge::laneApiKey(lane, env);
      if (key) rl.client = std::make_unique<bridge::LaneClient>(lane, *key, http_, *rl.breaker);
      else rl.keyProblem = key.error().message;
      lanes_.emplace(lane.name, std::move(rl));
    }
  }
  RunLane* find(const std::string& name) {
    auto it = lanes_.find(name);
    return it == lanes_.end() ? nullptr : &it->second;
  }
  const guard::Clock& clock() const { return clock_; }

 private:
  guard::SteadyClock clock_;
  bridge::CurlLaneHttp http_;
  std::map<std::string, RunLane> lanes_;
};

namespace {

class PipelineBridge final : public StepBridge {
 public:
  PipelineBridge(const PlannedStep& step, const RunContext& ctx, LaneSet& lanes,
                 std::function<void(const guard::Event&)> onStop)
      : started_(Clock::now()), budget_(step.policy.limits, lanes.clock()) {
    tools_.add(bridge::findingsReportTool(pending_));
    tools_.add(bridge::githubEventTool(ctx.event));
    if (step.policy.lane) {
      RunLane* primary = lanes.find(*step.policy.lane);
      RunLane* fallback = nullptr;
      if (primary && step.step->idempotent && primary->lane.fallbackLane)
        fallback = lanes.find(*primary->lane.fallbackLane);
      if (primary && primary->client) {
        tools_.add(bridge::modelCompleteTool(*primary->client,
                                             fallback && fallback->client ? fallback->client.get() : nullptr));
      } else if (primary) {
        // The key is missing on this host: the step learns why at its call.
        std::string problem = primary->keyProblem;
        tools_.add({"model.complete", "model completion (unavailable: " + problem + ")",
                    boost::json::object{{"type", "object"}},
                    [problem](const boost::json::object&, bridge::ToolContext&) -> Result<bridge::ToolOutput> {
                      return makeError(ErrorCode::UsageError, problem,
                                       "set the lane's apiKeyEnv variable for loopwright run");
                    },
                    true, false});
      }
    }
    bridge::SessionOptions options;
    options.step = step.policy.stage + "/" + step.policy.step;
    options.grants = bridge::grantsFor(*step.step);
    options.loop = step.policy.guardrails.loop;
    options.onEvent = [this](const guard::Event& e) {
      std::lock_guard<std::mutex> lock(mu_);
      events_.push_back({std::string(guard::toString(e.kind)), std::string(codeName(e.code)),
                         e.message, sinceStart()});
    };
    options.onStop = std::move(onStop);
    session_ = std::make_unique<bridge::Session>(std::move(options), tools_, budget_, lanes.clock());
  }

  Status start() {
    auto pair = bridge::makeBridgeSocketPair();
    if (!pair) return pair.error();
    stepEnd_ = std::move(pair->second);
    auto server = bridge::BridgeServer::serveFd(std::move(pair->first), *session_);
    if (!server) return server.error();
    server_ = std::move(*server);
    return Ok{};
  }

  int stepFd() const override { return stepEnd_.get(); }
  void closeStepEnd() override { stepEnd_.reset(); }

  BridgeOutcome finish() override {
    if (server_) server_->stop();
    BridgeOutcome out;
    out.findings = pending_.snapshot();
    {
      std::lock_guard<std::mutex> lock(mu_);
      out.events = events_;
    }
    out.stop = session_->stopped();
    for (const auto& r : session_->records()) {
      ++out.toolCalls;
      if (r.tool == "model.complete") ++out.modelCalls;
      out.callLog.push_back(r.tool + " " + std::string(bridge::toString(r.outcome)) + " " +
                            std::to_string(r.duration.count()) + " ms");
    }
    return out;
  }

 private:
  std::int64_t sinceStart() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_).count();
  }

  Clock::time_point started_;
  bridge::ToolRegistry tools_;
  bridge::PendingFindings pending_;
  guard::BudgetMeter budget_;
  std::unique_ptr<bridge::Session> session_;
  std::unique_ptr<bridge::BridgeServer> server_;
  bridge::UniqueFd stepEnd_;
  std::mutex mu_;
  std::vector<GuardrailEvent> events_;
};

}  // namespace

BridgeFactory makeBridgeFactory(const Taskpack& taskpack, const Environment& env) {
  auto lanes = std::make_shared<LaneSet>(taskpack, env);
  return [lanes](const PlannedStep& step, const RunContext& ctx,
                 std::function<void(const guard::Event&)> onStop)
             -> Result<std::unique_ptr<StepBridge>> {
    auto b = std::make_unique<PipelineBridge>(step, ctx, *lanes, std::move(onStop));
    if (auto s = b->start(); !s) return s.error();
    return std::unique_ptr<StepBridge>(std::move(b));
  };
}

}  // namespace lw::pipeline
