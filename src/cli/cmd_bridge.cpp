// `loopwright bridge stdio`: run inside a step's sandbox by an agent that
// expects a stdio MCP server; relays to the step's bridge (docs/security-model.md).
// Does nothing else at startup: no HTTP, no git, no configuration files.
#include <csignal>

#include "bridge/stdio_relay.h"
#include "cli/commands.h"
#include "cli/error_report.h"
#include "cli/exit_codes.h"

namespace lw::cli {

Command bridgeStdioCommand() {
  Command c;
  c.name = "bridge stdio";
  c.summary = "inside a step: serve the step's bridge as a stdio MCP server";
  c.description =
      "Relays MCP messages (JSON-RPC, one per line) between stdin/stdout and the step's\n"
      "bridge named by LOOPWRIGHT_BRIDGE (fd:N or a unix socket path), until stdin ends\n"
      "and every request has its answer, or the bridge closes. Point an agent's stdio MCP\n"
      "server configuration at `loopwright bridge stdio`.";
  c.run = [](const Args&, Io& io) {
    // A client that goes away must end the relay through EPIPE, not kill it.
    std::signal(SIGPIPE, SIG_IGN);
    auto sock = bridge::connectBridge(io.env);
    if (!sock) return reportError(io, sock.error());
    auto st = bridge::relayStdio(0, 1, sock->get());
    if (!st) return reportError(io, st.error());
    return kExitOk;
  };
  return c;
}

}  // namespace lw::cli
