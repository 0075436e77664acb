// The GitHub REST client: base URL (GITHUB_API_URL, so GitHub Enterprise
// Server works), the standard headers and API version, pagination through
// `Link`, and the retry rules of rate_limit.h applied with an injected clock
// and sleeper. Writes are serialized and paced (GitHub asks for requests one
// at a time and at least one second between writes); a POST, which is not
// idempotent, is retried only after asking the caller whether the previous
// try landed after all. Meant for one thread: GitHub's guidance is serial
// requests, and the rate-limit state it keeps is not shared.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include "core/environment.h"
#include "github/rest/github_http.h"
#include "github/rest/rate_limit.h"

namespace lw::github {

inline constexpr const char* kApiVersion = "2022-11-28";
inline constexpr const char* kJsonMedia = "application/vnd.github+json";
inline constexpr const char* kDiffMedia = "application/vnd.github.diff";

struct RestConfig {
  std::string apiUrl = "https://api.github.com";  // no trailing slash needed
  std::string token;                              // empty: unauthenticated
  RetryPolicy retry;
  std::chrono::milliseconds writeInterval{1000};
  std::chrono::milliseconds timeout{30000};
};

// GITHUB_API_URL (default https://api.github.com) and GITHUB_TOKEN.
RestConfig restConfigFromEnvironment(const Environment& env);

// Parses the body as JSON; null when it is empty or not JSON.
boost::json::value jsonBody(const HttpResponse& response);

// "message" of a GitHub error body, else the status; for error texts.
std::string describe(const HttpResponse& response);

// The rel="next" URL of a Link header, or "".
std::string nextPageUrl(const std::string& linkHeader);

class RestClient {
 public:
  // Asked before a POST is retried: the response of the earlier try if it
  // landed (found by re-listing), nullopt if it did not, or an Error.
  using LandedProbe = std::function<Result<std::optional<HttpResponse>>()>;

  RestClient(HttpTransport& transport, const WallClock& clock, Sleeper& sleeper, RestConfig config,
             std::ostream* log = nullptr);

  // `path` is "/repos/…" (joined to the API URL) or an absolute URL. An HTTP
  // error status after the retries is returned as the response; the Error is
  // for no response at all after the retries.
  Result<HttpResponse> get(const std::string& path, const std::string& accept = kJsonMedia);

  // Every page of a list endpoint, 100 per page, following Link rel="next".
  // `arrayKey` names the array in object responses ("check_runs"). Fails
  // with PUBLICATION_FAILED on any non-2xx page.
  Result<boost::json::array> getAll(const std::string& path, const std::string& arrayKey = "");

  // PATCH, PUT or DELETE, retried under the rules. A PATCH that appends
  // (check-run annotations) passes `landed` like a POST.
  Result<HttpResponse> send(const std::string& method, const std::string& path, const boost::json::value& body,
                            const LandedProbe* landed = nullptr);

  // POST, retried only when `landed` says the earlier try did not land.
  Result<HttpResponse> post(const std::string& path, const boost::json::value& body, const LandedProbe& landed);

  // A POST that changes nothing (a GraphQL query), so retried under the
  // rules like a GET with nothing to look for first. Paced like a write:
  // GitHub's guidance on writes names every POST.
  Result<HttpResponse> postQuery(const std::string& path, const boost::json::value& body);

  const RestConfig& config() const { return config_; }

 private:
  Result<HttpResponse> execute(const std::string& method, const std::string& path, const std::string& body,
                               const std::string& accept, const LandedProbe* landed);
  std::string url(const std::string& path) const;
  void waitUntil(std::chrono::system_clock::time_point t);

  HttpTransport& transport_;
  const WallClock& clock_;
  Sleeper& sleeper_;
  RestConfig config_;
  std::ostream* log_;
  std::mutex writeMutex_;
  std::optional<std::chrono::system_clock::time_point> lastWrite_;
  std::chrono::system_clock::time_point notBefore_{};
};

}  // namespace lw::github
