// The egress relay on the orchestrator's side, for a backend that hands
// out the step's listener instead of running a relay inside the sandbox
// (linux-landlock, sandbox/landlock/egress_listener.h): it carries each
// connection the step makes to 127.0.0.1:3128 of its own network namespace
// to the step's egress proxy, on its own thread, until it is destroyed.
#pragma once

#include <filesystem>
#include <memory>
#include <thread>

#include <boost/asio/io_context.hpp>

namespace lw::egress {

class ListenerRelay {
 public:
  // Adopts `listener` (closed with the relay).
  ListenerRelay(int listener, const std::filesystem::path& proxySocket);
  ~ListenerRelay();
  ListenerRelay(const ListenerRelay&) = delete;
  ListenerRelay& operator=(const ListenerRelay&) = delete;

 private:
  boost::asio::io_context io_;
  std::thread thread_;
};

}  // namespace lw::egress
