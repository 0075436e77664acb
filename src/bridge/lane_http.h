// The HTTP seam of the model lanes: one POST, its outcome as a value (a
// status, or why there was none). libcurl in production (curl_lane_http.h),
// the fake model server or a scripted fake in tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace lw::bridge {

struct LaneHttpRequest {
  std::string url;  // absolute; https, or http to this machine
  // Carries the API key: never logged, never part of an error message.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{120000};
  std::size_t maxResponseBytes = 8u << 20;
};

struct LaneHttpOutcome {
  int status = 0;          // 0: no response
  std::string body;
  bool timedOut = false;   // status 0 because the timeout passed
  bool tooLarge = false;   // status 0 because the body passed maxResponseBytes
  std::string error;       // what went wrong when status is 0 ("Couldn't connect to server")
};

class LaneHttp {
 public:
  virtual ~LaneHttp() = default;
  // Thread-safe: steps on one lane call it concurrently.
  virtual LaneHttpOutcome post(const LaneHttpRequest& request) = 0;
};

}  // namespace lw::bridge
