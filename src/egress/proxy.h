// The egress proxy of one step: owned by the orchestrator like the step's
// bridge, listening where only the step's relay reaches it (a unix socket
// in a directory mounted into the sandbox), deciding every connection by
// the step's egress list (docs/egress.md). It runs on its own thread until
// it is destroyed; what it decided is in records().
#pragma once

#include <filesystem>
#include <memory>
#include <thread>
#include <variant>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "core/result.h"
#include "egress/proxy_state.h"
#include "policy/model/host_config.h"

namespace lw::egress {

class EgressProxy {
 public:
  // A unix socket path, or a TCP endpoint (127.0.0.1 port 0 picks a free
  // port: the tests' and the bench's clients).
  using Listen = std::variant<std::filesystem::path, boost::asio::ip::tcp::endpoint>;

  // Fails with IO_ERROR when it cannot listen.
  static Result<std::unique_ptr<EgressProxy>> start(ProxyConfig config, const Listen& listen,
                                                    std::shared_ptr<NameResolver> resolver = systemResolver());
  ~EgressProxy();
  EgressProxy(const EgressProxy&) = delete;
  EgressProxy& operator=(const EgressProxy&) = delete;

  // The TCP port it listens on; 0 for a unix socket.
  unsigned short port() const { return port_; }
  std::vector<ConnectionRecord> records() const { return state_->snapshot(); }
  // The records once every connection has ended, waiting up to `grace`
  // for those the step's end is still closing; later ones are left out.
  std::vector<ConnectionRecord> finalRecords(std::chrono::milliseconds grace) const;

 private:
  explicit EgressProxy(std::shared_ptr<ProxyState> state);

  std::shared_ptr<ProxyState> state_;
  boost::asio::io_context io_;
  unsigned short port_ = 0;
  std::thread thread_;
};

// The proxy of one step whose list is `rules`, under the host config's
// `settings`, on the unix socket `socket` (its directory created first).
// Fails with IO_ERROR when it cannot listen there.
Result<std::unique_ptr<EgressProxy>> startStepProxy(const std::vector<EgressRule>& rules,
                                                    const EgressSettings& settings,
                                                    const std::filesystem::path& socket);

}  // namespace lw::egress
