#include "egress/listener_relay.h"

#include "egress/relay.h"
#include "egress/step_relay.h"

namespace lw::egress {

ListenerRelay::ListenerRelay(int listener, const std::filesystem::path& proxySocket) {
  ignoreBrokenPipes();
  relayEachConnection(io_, listener, proxySocket);
  thread_ = std::thread([this] { io_.run(); });
}

ListenerRelay::~ListenerRelay() {
  io_.stop();
  thread_.join();
}

}  // namespace lw::egress
