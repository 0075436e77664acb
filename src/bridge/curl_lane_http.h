// LaneHttp over libcurl: http(s) only, no redirects (a redirect would carry
// the x-api-key header to wherever it points), a total timeout, and a bound
// on the response size.
#pragma once

#include "bridge/lane_http.h"

namespace lw::bridge {

class CurlLaneHttp final : public LaneHttp {
 public:
  CurlLaneHttp();
  LaneHttpOutcome post(const LaneHttpRequest& request) override;
};

}  // namespace lw::bridge
