// A RestClient over the network (libcurl under github::httpPolicy()), the
// system clock and real sleeps: what every command that talks to GitHub
// builds, in one place. Tests build a RestClient over fakes instead.
#pragma once

#include <ostream>

#include "core/http_curl.h"
#include "github/rest/github_http.h"
#include "github/rest/rest_client.h"

namespace lw::github {

class LiveRestClient {
 public:
  LiveRestClient(RestConfig config, std::ostream* log)
      : transport_(httpPolicy()), api_(transport_, clock_, sleeper_, std::move(config), log) {}
  LiveRestClient(const LiveRestClient&) = delete;
  LiveRestClient& operator=(const LiveRestClient&) = delete;

  RestClient& api() { return api_; }

 private:
  http::CurlTransport transport_;
  SystemClock clock_;
  ThreadSleeper sleeper_;
  RestClient api_;  // last: it keeps references to the three above
};

}  // namespace lw::github
