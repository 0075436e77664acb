// One model lane as the bridge uses it: a completion through the lane's
// circuit breaker, with every outcome classified (docs/taskpack.md, "Guardrails"). Counted
// failures: timeout, no response, empty result, a body that is not the
// API's shape, 5xx, 429. Not counted (reported to the step, and the probe
// flag released): 400, 401, 403 and other 4xx. Calls are not retried here:
// the step decides, the breaker keeps score.
#pragma once

#include <string>
#include <vector>

#include "bridge/lane_protocol.h"
#include "core/environment.h"
#include "core/http.h"
#include "core/result.h"
#include "guard/circuit_breaker.h"
#include "policy/model/taskpack.h"

namespace lw::bridge {

enum class LaneFailure {
  None,
  BreakerOpen,  // refused without a request
  Timeout,
  NoResponse,   // connection refused or reset, TLS failure, a body over the bound
  EmptyResult,  // an empty body or an empty completion
  Invalid,      // a 2xx body not in the API's shape
  ServerError,  // 5xx
  RateLimited,  // 429
  Rejected,     // other 4xx (and 1xx/3xx): the request or the key is wrong
};
std::string_view toString(LaneFailure f);
// Whether the breaker counts it (docs/taskpack.md, "Guardrails").
bool countsAsBreakerFailure(LaneFailure f);

struct LaneResult {
  Result<Completion> completion = Completion{};
  LaneFailure failure = LaneFailure::None;
  std::vector<guard::Event> events;  // the breaker's open / close / escalate
};

// The lane's API key from the orchestrator's environment (lane.apiKeyEnv).
// USAGE_ERROR naming the variable when it is unset or empty. The value is
// for the Authorization / x-api-key header only: never logged, never passed
// into a sandbox.
Result<std::string> laneApiKey(const Lane& lane, const Environment& env);

class LaneClient {
 public:
  // `http` and `breaker` must outlive the client; one breaker per lane,
  // shared by every step on it.
  LaneClient(Lane lane, std::string apiKey, http::Transport& http, guard::CircuitBreaker& breaker);

  // Never throws. Errors: BREAKER_OPEN when the breaker refuses,
  // IO_ERROR for every failure of the call (the message names the lane,
  // the status or what happened, and whether it is retriable).
  LaneResult complete(const CompletionRequest& request);

  const Lane& lane() const { return lane_; }
  guard::CircuitBreaker& breaker() { return breaker_; }

 private:
  Lane lane_;
  std::string apiKey_;
  http::Transport& http_;
  guard::CircuitBreaker& breaker_;
};

}  // namespace lw::bridge
