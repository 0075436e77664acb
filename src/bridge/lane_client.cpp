#include "bridge/lane_client.h"

#include <cstdint>
#include <exception>
#include <tuple>
#include <utility>

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

namespace {

// What an exchange's outcome says before its body is read: the failure
// (None: a 2xx with a body to parse) and what to tell about it.
std::pair<LaneFailure, std::string> exchangeFailure(const http::Response& out, std::int64_t timeoutMs) {
  if (out.failure == http::Failure::kTimedOut)
    return {LaneFailure::Timeout, "no answer within " + std::to_string(timeoutMs) + " ms"};
  if (!out.answered()) return {LaneFailure::NoResponse, out.error};
  if (out.status == 429) return {LaneFailure::RateLimited, ""};
  if (out.status >= 500) return {LaneFailure::ServerError, ""};
  if (out.status == 408) return {LaneFailure::Timeout, ""};
  if (out.status < 200 || out.status >= 300) return {LaneFailure::Rejected, ""};
  if (out.body.find_first_not_of(" \t\r\n") == std::string::npos) return {LaneFailure::EmptyResult, "an empty body"};
  return {LaneFailure::None, ""};
}

}  // namespace

Result<std::string> laneApiKey(const Lane& lane, const Environment& env) {
  auto key = env.get(lane.apiKeyEnv);
  if (!key || key->empty())
    return makeError(ErrorCode::UsageError, "lane '" + lane.name + "': " + lane.apiKeyEnv + " is not set",
                     "pass the API key to the job from a secret: env: {" + lane.apiKeyEnv + ": ${{ secrets." +
                         lane.apiKeyEnv + " }}}",
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
    std::tie(r.failure, what) = exchangeFailure(out, lane_.timeoutMs);
    if (r.failure == LaneFailure::None) {
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
      if (what.empty())
        what = "HTTP " + std::to_string(out.status) + (type.empty() ? "" : " (" + type + ")");
      else
        what = "HTTP " + std::to_string(out.status) + " with " + what;
    }
    const bool counted = countsAsBreakerFailure(r.failure);
    r.events = counted ? permit.failed(std::string(toString(r.failure)) + ", " + what) : permit.nonRetriable();
    r.completion =
        makeError(ErrorCode::IoError, "lane '" + lane_.name + "': " + what + " from " + where,
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
