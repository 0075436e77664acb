#include "bridge/lane_pool.h"

namespace lw::bridge {

LanePool::LanePool(const Taskpack& taskpack, const Environment& env, http::Transport& http, const guard::Clock& clock) {
  for (const Lane& lane : taskpack.lanes) {
    Entry e;
    e.breaker = std::make_unique<guard::CircuitBreaker>(lane.name, taskpack.guardrails.breaker, clock);
    auto key = laneApiKey(lane, env);
    if (key)
      e.client = std::make_unique<LaneClient>(lane, std::move(*key), http, *e.breaker);
    else
      e.keyError = key.error();
    if (lane.fallbackLane) fallbackOf_[lane.name] = *lane.fallbackLane;
    lanes_.emplace(lane.name, std::move(e));
  }
}

Result<LaneClient*> LanePool::client(const std::string& lane) {
  auto it = lanes_.find(lane);
  if (it == lanes_.end())
    return makeError(ErrorCode::UsageError, "no lane named '" + lane + "' in spec.lanes",
                     "name one of the taskpack's lanes", lane);
  if (!it->second.client) return it->second.keyError;
  return it->second.client.get();
}

Result<StepRoute> LanePool::routeFor(const Step& step) {
  StepRoute route;
  if (!step.lane) return route;
  auto lane = client(*step.lane);
  if (!lane) return lane.error();
  route.lane = *lane;
  auto fb = fallbackOf_.find(*step.lane);
  if (step.idempotent && fb != fallbackOf_.end()) {
    auto fallback = client(fb->second);
    if (!fallback) return fallback.error();
    route.fallback = *fallback;
  }
  return route;
}

guard::CircuitBreaker* LanePool::breaker(const std::string& lane) {
  auto it = lanes_.find(lane);
  return it == lanes_.end() ? nullptr : it->second.breaker.get();
}

}  // namespace lw::bridge
