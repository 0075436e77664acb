// An in-memory Docker engine for unit tests: answers by "METHOD path-prefix"
// (the /v1.41 prefix stripped), records every request, and can be told that
// an exchange times out. Thread-safe, as the real transport is.
#pragma once

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "sandbox/docker/http_transport.h"

namespace lw::test {

class FakeEngine final : public sandbox::docker::HttpTransport {
 public:
  using Request = http::Request;
  using Response = http::Response;

  // Queues an answer for requests whose "METHOD target-without-prefix"
  // starts with `key`; the last queued answer repeats.
  void on(const std::string& key, long status, std::string body = {}, bool timedOut = false) {
    std::lock_guard lock(mutex_);
    Response r;
    r.status = static_cast<int>(status);
    r.body = std::move(body);
    if (timedOut) r.failure = http::Failure::kTimedOut;
    routes_[key].push_back(std::move(r));
  }
  // Forgets the answers queued so far for `key`.
  void clear(const std::string& key) {
    std::lock_guard lock(mutex_);
    routes_.erase(key);
  }
  // Every exchange fails as if the socket were missing.
  void unreachable() { unreachable_ = true; }

  Response send(const Request& request) override {
    std::lock_guard lock(mutex_);
    std::string target = sandbox::docker::engineTarget(request);
    if (target.rfind("/v1.41", 0) == 0) target = target.substr(6);
    const std::string key = request.method + " " + target;
    requests_.push_back(request);
    calls_.push_back(key);
    if (unreachable_)
      return http::noResponse(http::Failure::kUnreachable, "Couldn't connect to server at /nowhere.sock");
    const std::string* bestKey = nullptr;
    for (const auto& [k, v] : routes_)
      if (key.rfind(k, 0) == 0 && (bestKey == nullptr || k.size() > bestKey->size())) bestKey = &k;
    if (bestKey == nullptr) return Response{404, {}, R"({"message":"no route in FakeEngine: )" + key + "\"}"};
    auto& queue = routes_[*bestKey];
    Response r = queue.front();
    if (queue.size() > 1) queue.pop_front();
    if (request.sink && r.answered()) {
      // Hand the body over in small pieces, as a socket would.
      for (std::size_t i = 0; i < r.body.size(); i += 5) request.sink(std::string_view(r.body).substr(i, 5));
      r.body.clear();
    }
    return r;
  }

  std::vector<std::string> calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  std::vector<Request> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }
  int count(const std::string& prefix) const {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const auto& c : calls_) n += c.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::deque<Response>> routes_;
  std::vector<Request> requests_;
  std::vector<std::string> calls_;
  bool unreachable_ = false;
};

// A frame of the engine's multiplexed log stream.
inline std::string logFrame(int stream, const std::string& payload) {
  std::string f(8, '\0');
  f[0] = static_cast<char>(stream);
  const auto n = static_cast<std::uint32_t>(payload.size());
  f[4] = static_cast<char>(n >> 24);
  f[5] = static_cast<char>((n >> 16) & 0xff);
  f[6] = static_cast<char>((n >> 8) & 0xff);
  f[7] = static_cast<char>(n & 0xff);
  return f + payload;
}

}  // namespace lw::test
