// A LaneHttp that answers from a script and records requests (unit tests;
// the integration tests use the fake model server over real HTTP).
#pragma once

#include <deque>
#include <mutex>
#include <vector>

#include "bridge/lane_http.h"

namespace lw::test {

class ScriptedLaneHttp final : public bridge::LaneHttp {
 public:
  static bridge::LaneHttpOutcome ok(std::string body) { return {200, std::move(body), false, false, ""}; }
  static bridge::LaneHttpOutcome status(int s, std::string body = "") { return {s, std::move(body), false, false, ""}; }
  static bridge::LaneHttpOutcome timeout() { return {0, "", true, false, "Timeout was reached"}; }
  static bridge::LaneHttpOutcome refused() { return {0, "", false, false, "Couldn't connect to server"}; }

  void push(bridge::LaneHttpOutcome o, int times = 1) {
    std::lock_guard<std::mutex> lock(mu_);
    for (int i = 0; i < times; ++i) script_.push_back(o);
  }
  bridge::LaneHttpOutcome post(const bridge::LaneHttpRequest& r) override {
    std::lock_guard<std::mutex> lock(mu_);
    requests.push_back(r);
    if (script_.empty()) return ok(R"({"model":"m","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}]})");
    auto o = script_.front();
    script_.pop_front();
    return o;
  }
  std::vector<bridge::LaneHttpRequest> requests;

 private:
  std::mutex mu_;
  std::deque<bridge::LaneHttpOutcome> script_;
};

}  // namespace lw::test
