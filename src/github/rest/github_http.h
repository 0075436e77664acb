// The GitHub client's use of the HTTP layer (core/http.h): its hardening
// policy, the Error a missing response becomes, and the clock and sleeper the
// retry logic uses so that tests never wait.
#pragma once

#include <chrono>

#include "core/http.h"
#include "core/http_policy.h"
#include "core/result.h"

namespace lw::github {

using HttpRequest = http::Request;
using HttpResponse = http::Response;
using HttpTransport = http::Transport;

// Up to 5 redirects on the same origin (GitHub answers 301/307 for a renamed
// repository; the token must never follow one elsewhere), bodies up to
// 64 MiB (a pull request's diff; GitHub refuses larger ones with 406), and
// the proxy variables honoured (self-hosted runners behind a proxy).
http::Policy httpPolicy();

// `transport.send(request)`, with no response turned into PUBLICATION_FAILED
// naming the method and URL and what went wrong ("Couldn't connect to server").
Result<HttpResponse> exchange(HttpTransport& transport, const HttpRequest& request);
// The same for a response already received.
Result<HttpResponse> answeredOrError(HttpResponse response, const HttpRequest& request);

// Wall-clock time: GitHub states rate-limit resets in epoch seconds. (The
// guardrails measure durations on guard::Clock, a steady clock.)
class WallClock {
 public:
  virtual ~WallClock() = default;
  virtual std::chrono::system_clock::time_point now() const = 0;
};

class Sleeper {
 public:
  virtual ~Sleeper() = default;
  virtual void sleepFor(std::chrono::milliseconds d) = 0;
};

// The real clock and sleeper.
class SystemClock final : public WallClock {
 public:
  std::chrono::system_clock::time_point now() const override;
};
class ThreadSleeper final : public Sleeper {
 public:
  void sleepFor(std::chrono::milliseconds d) override;
};

}  // namespace lw::github
