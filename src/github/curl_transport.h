// HttpTransport over libcurl: one easy handle per request, redirects
// followed (GitHub answers 301/307 for renamed repositories), the
// Authorization header never sent to another host.
#pragma once

#include "github/http.h"

namespace lw::github {

class CurlTransport final : public HttpTransport {
 public:
  CurlTransport();
  // Fails with PUBLICATION_FAILED carrying curl's message ("Timeout was
  // reached", "Couldn't connect to server") when there is no response.
  Result<HttpResponse> send(const HttpRequest& request) override;
};

}  // namespace lw::github
