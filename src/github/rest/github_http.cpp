#include "github/rest/github_http.h"

#include <thread>

namespace lw::github {

http::Policy httpPolicy() {
  return {.maxRedirects = 5,
          .maxRequestBytes = 64u << 20,
          .maxResponseBytes = 64u << 20,
          .proxy = http::Proxy::kFromEnvironment};
}

Result<HttpResponse> exchange(HttpTransport& transport, const HttpRequest& request) {
  return answeredOrError(transport.send(request), request);
}

Result<HttpResponse> answeredOrError(HttpResponse response, const HttpRequest& request) {
  if (response.answered()) return response;
  std::string hint = "check GITHUB_API_URL and the network";
  if (response.failure == http::Failure::kTimedOut) hint = "GitHub did not answer in time";
  if (response.failure == http::Failure::kRefused)
    hint = "GITHUB_API_URL must be https (http only to this machine); redirects are followed on its host only";
  return makeError(ErrorCode::PublicationFailed, request.method + " " + request.url + ": " + response.error,
                   std::move(hint));
}

std::chrono::system_clock::time_point SystemClock::now() const { return std::chrono::system_clock::now(); }

void ThreadSleeper::sleepFor(std::chrono::milliseconds d) {
  if (d.count() > 0) std::this_thread::sleep_for(d);
}

}  // namespace lw::github
