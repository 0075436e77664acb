#include "bridge/lane_http.h"

namespace lw::bridge {

http::Policy laneHttpPolicy() {
  http::Policy p;
  p.maxRedirects = 0;
  p.maxRequestBytes = 8u << 20;
  p.maxResponseBytes = 8u << 20;
  p.proxy = http::Proxy::kFromEnvironment;
  return p;
}

}  // namespace lw::bridge
