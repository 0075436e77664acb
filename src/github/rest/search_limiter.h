// GitHub's search API has a rate limit of its own: 30 requests a minute for
// an authenticated user (docs.github.com/en/rest/search/search#rate-limit),
// apart from the REST budget. The limiter spaces searches so that no 60 s
// window holds more than that; the REST client's rules still apply to each.
// A pure decision on the time it is given; thread-safe.
#pragma once

#include <chrono>
#include <deque>
#include <mutex>

namespace lw::github {

class SearchLimiter {
 public:
  explicit SearchLimiter(int perWindow = 30, std::chrono::milliseconds window = std::chrono::seconds(60))
      : perWindow_(perWindow), window_(window) {}

  // Reserves the next search's slot and returns how long to wait before
  // sending it (0 when a slot is free at `now`).
  std::chrono::milliseconds reserve(std::chrono::system_clock::time_point now);

 private:
  int perWindow_;
  std::chrono::milliseconds window_;
  std::mutex mu_;
  std::deque<std::chrono::system_clock::time_point> sent_;  // the last perWindow_ slots, oldest first
};

}  // namespace lw::github
