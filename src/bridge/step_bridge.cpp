#include "bridge/step_bridge.h"

#include "bridge/model_tool.h"

namespace lw::bridge {

StepBridge::StepBridge(StepBridgeOptions options, const guard::Clock& clock) : budget_(options.limits, clock) {
  for (Tool& t : options.extraTools) registry_.add(std::move(t));
  registry_.add(findingsReportTool(findings_));
  registry_.add(githubEventTool(std::move(options.event)));
  if (options.route.lane) registry_.add(modelCompleteTool(*options.route.lane, options.route.fallback));
  SessionOptions s;
  s.step = std::move(options.stepId);
  s.grants = std::move(options.grants);
  s.loop = options.loop;
  s.onEvent = std::move(options.onEvent);
  s.onStop = std::move(options.onStop);
  session_ = std::make_unique<Session>(std::move(s), registry_, budget_, clock);
}

StepBridge::~StepBridge() { stop(); }

Status StepBridge::serve(UniqueFd fd) {
  if (server_) return makeError(ErrorCode::Internal, "the step's bridge is already serving");
  auto s = BridgeServer::serveFd(std::move(fd), *session_);
  if (!s) return s.error();
  server_ = std::move(*s);
  return Ok{};
}

Status StepBridge::listen(const std::string& path) {
  if (server_) return makeError(ErrorCode::Internal, "the step's bridge is already serving");
  auto s = BridgeServer::listen(path, *session_);
  if (!s) return s.error();
  server_ = std::move(*s);
  return Ok{};
}

void StepBridge::stop() {
  if (server_) server_->stop();
}

}  // namespace lw::bridge
