// HttpTransport over a unix socket with libcurl (CURLOPT_UNIX_SOCKET_PATH).
#pragma once

#include <chrono>
#include <string>

#include "sandbox/docker/http_transport.h"

namespace lw::sandbox::docker {

class CurlUnixTransport final : public HttpTransport {
 public:
  // `connectTimeout` bounds reaching the socket; each request's own timeout
  // bounds the whole exchange.
  explicit CurlUnixTransport(std::string socketPath,
                             std::chrono::milliseconds connectTimeout = std::chrono::seconds(5));
  Result<HttpResponse> send(const HttpRequest& request, const BodySink& sink = {}) override;
  const std::string& socketPath() const { return socketPath_; }

 private:
  std::string socketPath_;
  std::chrono::milliseconds connectTimeout_;
};

}  // namespace lw::sandbox::docker
