#include "sandbox/docker/http_transport.h"

#include "core/http_curl.h"

namespace lw::sandbox::docker {
namespace {

// The host part is ignored over a unix socket but must be a valid name.
constexpr std::string_view kOrigin = "http://docker";

}  // namespace

http::Policy enginePolicy(const std::string& socketPath, std::chrono::milliseconds connectTimeout) {
  return {.maxRedirects = 0, .connectTimeout = connectTimeout, .proxy = http::Proxy::kNever, .unixSocket = socketPath};
}

std::shared_ptr<HttpTransport> engineTransport(const std::string& socketPath,
                                               std::chrono::milliseconds connectTimeout) {
  return std::make_shared<http::CurlTransport>(enginePolicy(socketPath, connectTimeout));
}

http::Request engineRequest(const std::string& method, const std::string& target, std::string body,
                            std::chrono::milliseconds timeout, BodySink sink) {
  http::Request r;
  r.method = method;
  r.url = std::string(kOrigin) + target;
  if (method == "POST" || !body.empty()) r.headers.emplace_back("Content-Type", "application/json");
  r.body = std::move(body);
  r.timeout = timeout;
  r.sink = std::move(sink);
  return r;
}

std::string engineTarget(const http::Request& request) {
  return request.url.rfind(kOrigin, 0) == 0 ? request.url.substr(kOrigin.size()) : request.url;
}

Result<HttpResponse> exchange(HttpTransport& transport, const http::Request& request) {
  HttpResponse r = transport.send(request);
  if (r.answered() || timedOut(r)) return r;
  return makeError(ErrorCode::IoError,
                   "Docker engine: " + r.error + " (" + request.method + " " + engineTarget(request) + ")",
                   "is dockerd running, and may this user open its socket?", "docker");
}

}  // namespace lw::sandbox::docker
