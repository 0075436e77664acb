#include "github/http.h"

#include <thread>

namespace lw::github {

std::chrono::system_clock::time_point SystemClock::now() const {
  return std::chrono::system_clock::now();
}

void ThreadSleeper::sleepFor(std::chrono::milliseconds d) {
  if (d.count() > 0) std::this_thread::sleep_for(d);
}

}  // namespace lw::github
