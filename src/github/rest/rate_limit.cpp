#include "github/rest/rate_limit.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace lw::github {

using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

std::optional<long long> number(const std::string& s) {
  long long v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

bool containsNoCase(const std::string& haystack, std::string_view needle) {
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return it != haystack.end();
}

bool primaryExhausted(const HttpResponse& r) { return r.header("x-ratelimit-remaining") == "0"; }

milliseconds untilReset(const HttpResponse& r, std::chrono::system_clock::time_point now) {
  auto reset = number(r.header("x-ratelimit-reset"));
  if (!reset) return milliseconds(-1);
  auto at = std::chrono::system_clock::time_point(seconds(*reset));
  // One second of margin: the reset is given in whole seconds.
  return std::max(milliseconds(0), std::chrono::duration_cast<milliseconds>(at - now) + seconds(1));
}

milliseconds exponential(milliseconds base, int attempt) {
  int shift = std::clamp(attempt - 1, 0, 20);
  return base * (1LL << shift);
}

}  // namespace

Failure classify(const HttpResponse* r) {
  if (!r) return Failure::NoResponse;
  int s = r->status;
  if (s < 400) return Failure::None;
  if (s >= 500) return Failure::ServerError;
  if (s == 403 || s == 429) {
    if (primaryExhausted(*r)) return Failure::PrimaryRateLimit;
    if (s == 429 || !r->header("retry-after").empty() || containsNoCase(r->body, "secondary rate limit") ||
        containsNoCase(r->body, "abuse"))
      return Failure::SecondaryRateLimit;
    return Failure::Permission;
  }
  if (s == 404) return Failure::Permission;
  if (s == 406) return Failure::TooLarge;
  if (s == 422) return Failure::Unprocessable;
  return Failure::Client;
}

RetryDecision decideRetry(const HttpResponse* r, int attempt, std::chrono::system_clock::time_point now,
                          const RetryPolicy& policy) {
  Failure f = classify(r);
  RetryDecision d;
  auto give = [&](milliseconds wait, std::string reason) {
    if (attempt >= policy.maxAttempts) {
      d.reason = reason + "; giving up after " + std::to_string(attempt) + " tries";
      return d;
    }
    if (wait > policy.maxWait) {
      d.reason = reason + "; the wait (" + std::to_string(wait.count() / 1000) + " s) is longer than the bound";
      return d;
    }
    d.retry = true;
    d.wait = wait;
    d.reason = std::move(reason);
    return d;
  };
  std::optional<long long> retryAfter = r ? number(r->header("retry-after")) : std::nullopt;
  switch (f) {
    case Failure::PrimaryRateLimit: {
      milliseconds w = untilReset(*r, now);
      if (w < milliseconds(0)) w = policy.secondaryMinimum;
      return give(w, "primary rate limit: waiting until x-ratelimit-reset");
    }
    case Failure::SecondaryRateLimit:
      if (retryAfter)
        return give(seconds(std::max(0LL, *retryAfter)),
                    "secondary rate limit: retry-after " + std::to_string(*retryAfter) + " s");
      return give(exponential(policy.secondaryMinimum, attempt),
                  "secondary rate limit without retry-after: backing off");
    case Failure::ServerError:
      if (retryAfter)
        return give(seconds(std::max(0LL, *retryAfter)),
                    "HTTP " + std::to_string(r->status) + ": retry-after " + std::to_string(*retryAfter) + " s");
      return give(exponential(policy.serverErrorBase, attempt), "HTTP " + std::to_string(r->status));
    case Failure::NoResponse: return give(exponential(policy.serverErrorBase, attempt), "no response");
    default: d.reason = r ? "HTTP " + std::to_string(r->status) + " is not retried" : "not retried"; return d;
  }
}

milliseconds primaryWait(const HttpResponse& r, std::chrono::system_clock::time_point now) {
  if (!primaryExhausted(r)) return milliseconds(0);
  return std::max(milliseconds(0), untilReset(r, now));
}

}  // namespace lw::github
