// The egress relay inside a step's sandbox, run by loopwright-container-init
// (src/container_init_main.cpp) (networkMode allow-list): the
// step's network namespace has only loopback, so the relay listens on
// 127.0.0.1:<port> there, where HTTP_PROXY and HTTPS_PROXY point, and
// carries each connection to the egress proxy's unix socket, which the
// sandbox mounts read-only. It runs the step's command as its child and
// ends with it. A step that kills the relay only loses its own network:
// the namespace has no other way out.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace lw::egress {

inline constexpr unsigned short kRelayPort = 3128;

// Runs `argv` (PATH searched) with the relay beside it; returns its exit
// status as a shell reports it (128 + the signal that killed it), or 127
// with a line on stderr when it cannot listen or start the command.
int runWithRelay(const std::filesystem::path& proxySocket, unsigned short port, const std::vector<std::string>& argv);

// Carries each connection accepted on `listener` (a listening stream
// socket, adopted: `io` closes it) to `proxySocket`, for as long as `io`
// runs. runWithRelay's own loop; linux-landlock runs it on the
// orchestrator's side, on the listener its step's network namespace
// handed out at launch (sandbox/landlock/egress_listener.h).
void relayEachConnection(boost::asio::io_context& io, int listener, const std::filesystem::path& proxySocket);

}  // namespace lw::egress
