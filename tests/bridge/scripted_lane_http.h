// An http::Transport that answers a lane's requests from a script and
// records them (unit tests; the integration tests use the fake model server
// over real HTTP with http::CurlTransport).
#pragma once

#include <deque>
#include <mutex>
#include <vector>

#include "core/http.h"

namespace lw::test {

class ScriptedLaneHttp final : public http::Transport {
 public:
  static http::Response ok(std::string body) { return status(200, std::move(body)); }
  static http::Response status(int s, std::string body = "") {
    http::Response r;
    r.status = s;
    r.body = std::move(body);
    return r;
  }
  static http::Response timeout() { return http::noResponse(http::Failure::kTimedOut, "Timeout was reached"); }
  static http::Response refused() {
    return http::noResponse(http::Failure::kUnreachable, "Couldn't connect to server");
  }

  void push(http::Response o, int times = 1) {
    std::lock_guard<std::mutex> lock(mu_);
    for (int i = 0; i < times; ++i) script_.push_back(o);
  }
  http::Response send(const http::Request& r) override {
    std::lock_guard<std::mutex> lock(mu_);
    requests.push_back(r);
    if (script_.empty()) return ok(R"({"model":"m","choices":[{"message":{"content":"hi"},"finish_reason":"stop"}]})");
    auto o = script_.front();
    script_.pop_front();
    return o;
  }
  std::vector<http::Request> requests;

 private:
  std::mutex mu_;
  std::deque<http::Response> script_;
};

}  // namespace lw::test
