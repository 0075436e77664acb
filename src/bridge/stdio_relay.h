// `loopwright bridge stdio`: inside the sandbox, the step's bridge socket as
// a stdio MCP server, for agents configured with one. Lines from stdin go to
// the socket, bytes from the socket go to stdout, until either side ends.
// Kept small on purpose: it runs in every sandbox that asks for it.
#pragma once

#include <string>

#include "core/environment.h"
#include "core/result.h"
#include "core/unique_fd.h"

namespace lw::bridge {

// The step's end of its bridge from LOOPWRIGHT_BRIDGE: "fd:N" (an inherited
// connected socket; checked to be one) or a unix socket path (connected).
// USAGE_ERROR when unset or malformed; IO_ERROR when it cannot be reached.
Result<UniqueFd> connectBridge(const Environment& env);

// Relays until the socket ends, or stdin ends and every request sent has
// been answered (the bridge answers each request line with one line, see
// jsonrpc.h expectsReply). Does not close `sock`: with fd:N other processes
// of the step may share it. IO_ERROR on a read or write failure.
Status relayStdio(int in, int out, int sock);

}  // namespace lw::bridge
