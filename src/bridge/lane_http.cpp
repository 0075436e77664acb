#include "bridge/lane_http.h"

namespace lw::bridge {

http::Policy laneHttpPolicy() {
  return {.maxRedirects = 0,
          .maxRequestBytes = 8u << 20,
          .maxResponseBytes = 8u << 20,
          .proxy = http::Proxy::kFromEnvironment};
}

}  // namespace lw::bridge
