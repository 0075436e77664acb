#include "pipeline/step/bridge_adapter.h"

#include <atomic>
#include <chrono>
#include <mutex>

#include "bridge/github_read_tools.h"
#include "bridge/lane_http.h"
#include "bridge/lane_pool.h"
#include "bridge/model_tool.h"
#include "bridge/server.h"
#include "bridge/session.h"
#include "bridge/step_bridge.h"
#include "bridge/tool_registry.h"
#include "core/http_curl.h"
#include "core/step_label.h"
#include "core/unique_fd.h"
#include "guard/clock.h"
#include "pipeline/review/run_github_reader.h"
#include "policy/model/tool_names.h"

namespace lw::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// One of a model.complete answer's usage counts ("inputTokens" or
// "outputTokens"); 0 when absent.
std::int64_t answerTokens(const boost::json::value& answer, const char* key) {
  const auto* o = answer.if_object();
  const auto* usage = o ? o->if_contains("usage") : nullptr;
  if (!usage || !usage->is_object()) return 0;
  const auto* v = usage->as_object().if_contains(key);
  return v && v->is_int64() ? std::max<std::int64_t>(0, v->get_int64()) : 0;
}

// The run's lanes: one breaker and client per lane, shared by every step.
struct RunLanes {
  RunLanes(const Taskpack& tp, const Environment& env) : pool(tp, env, http, clock) {}
  guard::SteadyClock clock;
  http::CurlTransport http{bridge::laneHttpPolicy()};
  bridge::LanePool pool;
  // The GitHub reads every step's bridge offers (to the steps granted
  // them), made on the first step: the run's context is the same for all.
  std::shared_ptr<GithubReader> readsFor(const RunContext& ctx) {
    std::call_once(readsOnce, [&] { reads = makeRunGithubReader(ctx); });
    return reads;
  }
  std::once_flag readsOnce;
  std::shared_ptr<GithubReader> reads;
};

// bridge::StepBridge behind the pipeline's interface, holding the step's end
// of the socket pair until the step is launched.
class PipelineBridge final : public BridgeHandle {
 public:
  PipelineBridge(const PlannedStep& step, const RunContext& ctx, RunLanes& lanes,
                 std::function<void(const guard::Event&)> onStop) {
    bridge::StepBridgeOptions options;
    options.stepId = stepLabel(step.policy.stage, step.policy.step);
    options.grants = bridge::grantsFor(*step.step);
    options.loop = step.policy.guardrails.loop;
    options.limits = step.policy.limits;
    options.event = ctx.event;
    for (bridge::Tool& t : bridge::githubReadTools(lanes.readsFor(ctx))) options.extraTools.push_back(std::move(t));
    auto route = lanes.pool.routeFor(*step.step);
    if (route && route->lane) {
      // The bridge's model.complete, wrapped here to count the tokens of its
      // answers for the run record; so the bridge is given no route of its own.
      bridge::Tool model = bridge::modelCompleteTool(*route->lane, route->fallback);
      model.handler = [inner = std::move(model.handler), this](const boost::json::object& args,
                                                               bridge::ToolContext& tc) -> Result<bridge::ToolOutput> {
        auto out = inner(args, tc);
        if (out) {
          inputTokens_ += answerTokens(out->structured, "inputTokens");
          outputTokens_ += answerTokens(out->structured, "outputTokens");
        }
        return out;
      };
      options.extraTools.push_back(std::move(model));
    } else if (!route) {
      // A lane without its key fails the step's model calls, not the step:
      // each call is answered with why.
      Error why = route.error();
      options.extraTools.push_back(
          {tools::kModelComplete, "model completion (unavailable: " + why.message + ")",
           boost::json::object{{"type", "object"}},
           [why](const boost::json::object&, bridge::ToolContext&) -> Result<bridge::ToolOutput> { return why; }, true,
           false});
    }
    options.onEvent = [this](const guard::Event& e) {
      std::lock_guard<std::mutex> lock(mu_);
      events_.push_back({std::string(guard::toString(e.kind)), std::string(codeName(e.code)), e.message, sinceStart()});
    };
    options.onStop = std::move(onStop);
    bridge_ = std::make_unique<bridge::StepBridge>(std::move(options), lanes.clock);
  }

  Status start(const std::string& socketPath) {
    if (!socketPath.empty()) return bridge_->listen(socketPath);
    auto pair = bridge::makeBridgeSocketPair();
    if (!pair) return pair.error();
    stepEnd_ = std::move(pair->second);
    return bridge_->serve(std::move(pair->first));
  }

  int stepFd() const override { return stepEnd_ ? stepEnd_.get() : -1; }
  void closeStepEnd() override { stepEnd_.reset(); }

  BridgeOutcome finish() override {
    bridge_->stop();
    BridgeOutcome out;
    out.findings = bridge_->findings();
    {
      std::lock_guard<std::mutex> lock(mu_);
      out.events = events_;
    }
    out.stop = bridge_->stopped();
    out.inputTokens = inputTokens_.load();
    out.outputTokens = outputTokens_.load();
    out.tokensUsed = out.inputTokens + out.outputTokens;
    for (const auto& r : bridge_->records()) {
      ++out.toolCalls;
      if (r.tool == tools::kModelComplete) ++out.modelCalls;
      out.callLog.push_back(r.tool + " " + std::string(bridge::toString(r.outcome)) + " " +
                            std::to_string(r.duration.count()) + " ms");
    }
    if (std::size_t late = bridge_->refusedAfterStop(); late > 0)
      out.callLog.push_back(std::to_string(late) + " more calls refused after the stop");
    return out;
  }

 private:
  std::int64_t sinceStart() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started_).count();
  }

  Clock::time_point started_ = Clock::now();
  // Before bridge_: its thread adds to them until it stops.
  std::atomic<std::int64_t> inputTokens_{0};
  std::atomic<std::int64_t> outputTokens_{0};
  std::unique_ptr<bridge::StepBridge> bridge_;
  UniqueFd stepEnd_;
  std::mutex mu_;
  std::vector<GuardrailEvent> events_;
};

}  // namespace

BridgeFactory makeBridgeFactory(const Taskpack& taskpack, const Environment& env) {
  auto lanes = std::make_shared<RunLanes>(taskpack, env);
  return [lanes](const PlannedStep& step, const RunContext& ctx, std::function<void(const guard::Event&)> onStop,
                 const std::string& socketPath) -> Result<std::unique_ptr<BridgeHandle>> {
    auto b = std::make_unique<PipelineBridge>(step, ctx, *lanes, std::move(onStop));
    if (auto s = b->start(socketPath); !s) return s.error();
    return std::unique_ptr<BridgeHandle>(std::move(b));
  };
}

}  // namespace lw::pipeline
