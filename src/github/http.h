// The HTTP seam of the GitHub client: requests and responses as values, a
// transport interface (libcurl in production, scripted fakes in tests), and
// the clock and sleeper the retry logic uses so that tests never wait.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace lw::github {

struct HttpRequest {
  std::string method;  // "GET", "POST", "PATCH", "PUT", "DELETE"
  std::string url;     // absolute
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{30000};
};

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-cased; last value wins
  std::string body;

  // The header's value, or "" when absent. `name` must be lower case.
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Sends one request. An HTTP error status is a response, not an error; the
  // Error (PUBLICATION_FAILED) is for no response at all: connection refused,
  // timeout, TLS failure. Its message says which.
  virtual Result<HttpResponse> send(const HttpRequest& request) = 0;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point now() const = 0;
};

class Sleeper {
 public:
  virtual ~Sleeper() = default;
  virtual void sleepFor(std::chrono::milliseconds d) = 0;
};

// The real clock and sleeper.
class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point now() const override;
};
class ThreadSleeper final : public Sleeper {
 public:
  void sleepFor(std::chrono::milliseconds d) override;
};

}  // namespace lw::github
