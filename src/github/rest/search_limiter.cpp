#include "github/rest/search_limiter.h"

namespace lw::github {

std::chrono::milliseconds SearchLimiter::reserve(std::chrono::system_clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  auto at = now;
  if (static_cast<int>(sent_.size()) >= perWindow_) {
    // The slot frees when the oldest of the window's searches leaves it.
    at = std::max(now, sent_.front() + window_);
    sent_.pop_front();
  }
  sent_.push_back(at);
  return std::chrono::duration_cast<std::chrono::milliseconds>(at - now);
}

}  // namespace lw::github
