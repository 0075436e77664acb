// The model lanes of one run: per taskpack lane one circuit breaker (shared
// by every step on it, docs/taskpack.md, "Guardrails") and one client whose API key is read
// from the orchestrator's environment. A lane whose key is missing fails
// only the steps that use it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "bridge/lane_client.h"
#include "core/environment.h"
#include "guard/clock.h"
#include "policy/model/taskpack.h"

namespace lw::bridge {

// The lanes a step's model.complete uses: its own, and the fallback it may
// be rerouted to once (set only when the step is idempotent and its lane
// names a fallbackLane).
struct StepRoute {
  LaneClient* lane = nullptr;
  LaneClient* fallback = nullptr;
};

class LanePool {
 public:
  // `http` and `clock` must outlive the pool. Reads each lane's apiKeyEnv
  // from `env` now; the keys stay in this process.
  LanePool(const Taskpack& taskpack, const Environment& env, http::Transport& http, const guard::Clock& clock);

  // The route of `step`: {nullptr, nullptr} when it has no lane. USAGE_ERROR
  // when its lane (or the fallback it would need) has no API key, or names
  // no lane of the taskpack.
  Result<StepRoute> routeFor(const Step& step);

  // The breaker of `lane`, nullptr when there is no such lane.
  guard::CircuitBreaker* breaker(const std::string& lane);

 private:
  struct Entry {
    std::unique_ptr<guard::CircuitBreaker> breaker;
    std::unique_ptr<LaneClient> client;  // null when the key is missing
    Error keyError;
  };
  Result<LaneClient*> client(const std::string& lane);

  std::map<std::string, Entry> lanes_;
  std::map<std::string, std::string> fallbackOf_;
};

}  // namespace lw::bridge
