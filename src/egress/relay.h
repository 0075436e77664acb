// Moving bytes between the step and its destination once the proxy has
// allowed a connection: both ways until each side closes, counted against
// the step's byte budget, cut when neither side has spoken for the idle
// timeout.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/generic/stream_protocol.hpp>

#include "egress/connection_record.h"
#include "egress/proxy_state.h"

namespace lw::egress {

using Stream = boost::asio::generic::stream_protocol::socket;

enum class RelayEnd { Closed, IdleTimeout, BudgetSpent, Error };

// Both directions; bytes counted in `r`.
boost::asio::awaitable<RelayEnd> relayBothWays(Stream& step, Stream& destination, ConnectionRecord& r,
                                               ProxyState& state);

// destination -> step only (the response to a plain-HTTP request, which
// the proxy forwarded with Connection: close).
boost::asio::awaitable<RelayEnd> relayResponse(Stream& destination, Stream& step, ConnectionRecord& r,
                                               ProxyState& state);

std::string_view describe(RelayEnd end);

// splice(2) into a socket whose peer has gone raises SIGPIPE (it takes no
// MSG_NOSIGNAL), which would end the process that relays (the orchestrator,
// or the step's relay and with it the step's network) whenever a client
// closes early. Every relaying process ignores it (the step's own processes
// get the default back: sandbox/process/supervisor.cpp, step_relay.cpp).
void ignoreBrokenPipes();

}  // namespace lw::egress
