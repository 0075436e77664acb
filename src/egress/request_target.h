// What a client asked the egress proxy for, read from its request line
// and Host header: a CONNECT tunnel to host:port, or one plain-HTTP request
// in absolute form (http://host[:port]/path), its path normalised the way
// a server would resolve it, so that the rule checked is the request sent.
// Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "egress/allow_list.h"

namespace lw::egress {

struct ProxyRequest {
  bool tunnel = false;  // CONNECT
  RequestedDestination destination;
  std::string originTarget;  // plain HTTP: the normalised path and query to send upstream
};

// The request, or why it is refused (answered 400).
std::variant<ProxyRequest, std::string> readProxyRequest(std::string_view method, std::string_view target,
                                                         std::optional<std::string_view> hostHeader);

}  // namespace lw::egress
