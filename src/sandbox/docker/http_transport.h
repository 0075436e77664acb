// The one effect the Docker client needs: an HTTP/1.1 exchange with the
// engine. Behind this interface so that the client's logic (status codes,
// error bodies, the wait/kill/remove sequence) is tested with a fake.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace lw::sandbox::docker {

struct HttpRequest {
  std::string method;  // "GET", "POST", "DELETE"
  std::string target;  // "/v1.41/containers/create?…", already escaped
  std::string body;    // sent as application/json when not empty
  // Whole-exchange limit; zero means none (a wait without a deadline).
  std::chrono::milliseconds timeout{0};
};

struct HttpResponse {
  long status = 0;
  std::string body;       // empty when a sink consumed it
  bool timedOut = false;  // the timeout passed before the exchange finished
};

// Receives the body in pieces as it arrives (bounded memory for logs).
using BodySink = std::function<void(std::string_view)>;

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Performs one exchange. A timeout is not an error: it returns timedOut.
  // Fails with IO_ERROR when the engine cannot be reached or the exchange
  // breaks. Safe to call from several threads at once.
  virtual Result<HttpResponse> send(const HttpRequest& request, const BodySink& sink = {}) = 0;
};

}  // namespace lw::sandbox::docker
