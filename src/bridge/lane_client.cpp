#include "bridge/lane_client.h"

#include <exception>

namespace lw::bridge {

std::string_view toString(LaneFailure f) {
  switch (f) {
    case LaneFailure::None: return "none";
    case LaneFailure::BreakerOpen: return "breaker-open";
    case LaneFailure::Timeout: return "timeout";
    case LaneFailure::NoResponse: return "no-response";
    case LaneFailure::EmptyResult: return "empty-result";
    case LaneFailure::Invalid: return "invalid";
    case LaneFailure::ServerError: return "server-error";
    case LaneFailure::RateLimited: return "rate-limited";
    case LaneFailure::Rejected: return "rejected";
  }
  return "unknown";
}

bool countsAsBreakerFailure(LaneFailure f) {
  return f != LaneFailure::None && f != LaneFailure::BreakerOpen && f != LaneFailure::Rejected;
}

Result<std::string> laneApiKey(const Lane& lane, const Environment& env) {
  auto key = env.get(lane.apiKeyEnv);
  if (!key || key->empty())
    return makeError(ErrorCode::UsageError,
                     "lane '" + lane.name + "': " + lane.apiKeyEnv + " is not set",
                     "pass the API key to the job from a secret: env: {" + lane.apiKeyEnv +
                         ": ${{ secrets." + lane.apiKeyEnv + " }}}",
                     lane.name);
  return *key;
}

LaneClient::LaneClient(Lane lane, std::string apiKey, http::Transport& http, guard::CircuitBreaker& breaker)
    : lane_(std::move(lane)), apiKey_(std::move(apiKey)), http_(http), breaker_(breaker) {}

LaneResult LaneClient::complete(const CompletionRequest& request) {
  LaneResult r;
  guard::Permit permit = breaker_.acquire();
  if (!permit.granted()) {
    r.failure = LaneFailure::BreakerOpen;
    Error e = makeError(ErrorCode::BreakerOpen, permit.refusal()->message,
                        "wait for the cooldown, or finish without the model", lane_.name);
    r.completion = std::move(e);
    return r;
  }
  // The permit settles on every path below; should anything throw, its
  // destructor releases the probe flag.
  try {
    http::Request http = buildLaneRequest(lane_, apiKey_, request);
    const std::string where = "POST " + http.url;
    const http::Response out = http_.send(http);
    std::string what;
    if (out.status == 0) {
      const bool timedOut = out.failure == http::Failure::kTimedOut;
      r.failure = timedOut ? LaneFailure::Timeout : LaneFailure::NoResponse;
      what = timedOut ? "no answer within " + std::to_string(lane_.timeoutMs) + " ms" : out.error;
    } else if (out.status == 429) {
      r.failure = LaneFailure::RateLimited;
    } else if (out.status >= 500) {
      r.failure = LaneFailure::ServerError;
    } else if (out.status == 408) {
      r.failure = LaneFailure::Timeout;
    } else if (out.status < 200 || out.status >= 300) {
      r.failure = LaneFailure::Rejected;
    } else if (out.body.find_first_not_of(" \t\r\n") == std::string::npos) {
      r.failure = LaneFailure::EmptyResult;
      what = "an empty body";
    } else {
      auto c = parseLaneResponse(lane_.api, out.body);
      if (!c) {
        r.failure = LaneFailure::Invalid;
        what = c.error().message;
      } else if (c->text.empty()) {
        r.failure = LaneFailure::EmptyResult;
        what = "an empty completion";
      } else {
        r.events = permit.succeeded();
        r.completion = std::move(*c);
        return r;
      }
    }
    if (out.status != 0) {
      std::string type = laneErrorType(out.body);
      if (what.empty()) what = "HTTP " + std::to_string(out.status) + (type.empty() ? "" : " (" + type + ")");
      else what = "HTTP " + std::to_string(out.status) + " with " + what;
    }
    const bool counted = countsAsBreakerFailure(r.failure);
    r.events = counted ? permit.failed(std::string(toString(r.failure)) + ", " + what)
                       : permit.nonRetriable();
    r.completion = makeError(
        ErrorCode::IoError, "lane '" + lane_.name + "': " + what + " from " + where,
        counted ? "retriable: the call may be repeated later (the lane's breaker counts this failure)"
                : "not retriable: check the lane's apiKeyEnv, model and baseUrl, and the request",
        lane_.name);
  } catch (const std::exception& e) {
    // Our failure, not the lane's: the probe flag is released, nothing counted.
    r.failure = LaneFailure::Rejected;
    r.events = permit.nonRetriable();
    r.completion = makeError(ErrorCode::Internal, "lane '" + lane_.name + "': " + e.what(), "", lane_.name);
  }
  return r;
}

}  // namespace lw::bridge
