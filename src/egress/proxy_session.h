// One connection to the egress proxy, from the step's first byte to the
// last: read the request head, decide by name, resolve and decide by
// address, connect, then for CONNECT check the ClientHello's server name
// and relay, or for plain HTTP forward the one request and its response.
// Every connection ends as one ConnectionRecord in the proxy's state.
#pragma once

#include <memory>

#include <boost/asio/awaitable.hpp>

#include "egress/proxy_state.h"
#include "egress/relay.h"

namespace lw::egress {

boost::asio::awaitable<void> serveConnection(Stream step, std::shared_ptr<ProxyState> state);

}  // namespace lw::egress
