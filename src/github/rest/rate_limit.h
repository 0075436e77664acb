// GitHub's documented retry rules, as a pure decision on one response (or
// transport failure), the attempt number and the time:
//  - primary limit: x-ratelimit-remaining: 0 -> wait until x-ratelimit-reset;
//  - secondary limit (403/429): retry-after seconds, else at least 60 s,
//    growing exponentially, for a bounded number of tries;
//  - 5xx and no response: exponential backoff, bounded;
//  - any other 4xx: never retried.
// Source: docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api
// ("Handle rate limit errors appropriately") and best-practices-for-using-the-rest-api.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "github/rest/github_http.h"

namespace lw::github {

struct RetryPolicy {
  int maxAttempts = 5;                              // tries in all, the first included
  std::chrono::milliseconds serverErrorBase{1000};  // 5xx / timeout: base * 2^(attempt-1)
  std::chrono::milliseconds secondaryMinimum{60000};
  std::chrono::milliseconds maxWait{std::chrono::minutes(15)};  // longer than this: give up
};

enum class Failure {
  None,  // 2xx/3xx
  PrimaryRateLimit,
  SecondaryRateLimit,
  ServerError,    // 5xx
  NoResponse,     // timeout, connection refused
  Permission,     // 403/404 that is not a rate limit
  Unprocessable,  // 422
  TooLarge,       // 406 (e.g. a diff over GitHub's limits)
  Client,         // any other 4xx
};

// What a status and its headers mean. `response` is null for no response.
Failure classify(const HttpResponse* response);

struct RetryDecision {
  bool retry = false;
  std::chrono::milliseconds wait{0};
  std::string reason;  // "secondary rate limit: retry-after 30 s"
};

// `attempt` is the 1-based number of the try that produced `response`.
RetryDecision decideRetry(const HttpResponse* response, int attempt, std::chrono::system_clock::time_point now,
                          const RetryPolicy& policy);

// For a successful response that spent the primary budget: how long the
// next request must wait (x-ratelimit-remaining 0 until x-ratelimit-reset).
std::chrono::milliseconds primaryWait(const HttpResponse& response, std::chrono::system_clock::time_point now);

}  // namespace lw::github
