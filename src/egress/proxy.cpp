#include "egress/proxy.h"

#include <cstring>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/basic_socket_acceptor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/generic/stream_protocol.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "egress/proxy_session.h"
#include "egress/relay.h"

namespace lw::egress {

namespace asio = boost::asio;
using Acceptor = asio::basic_socket_acceptor<asio::generic::stream_protocol>;

namespace {

asio::generic::stream_protocol::endpoint endpointOf(const EgressProxy::Listen& listen) {
  if (const auto* path = std::get_if<std::filesystem::path>(&listen))
    return asio::local::stream_protocol::endpoint(path->string());
  return std::get<asio::ip::tcp::endpoint>(listen);
}

// Accepts until the io_context stops; each connection is served on its
// own coroutine, so a slow one holds up no other.
asio::awaitable<void> acceptLoop(std::shared_ptr<Acceptor> acceptor, std::shared_ptr<ProxyState> state) {
  for (;;) {
    auto [ec, step] = co_await acceptor->async_accept(asio::as_tuple(asio::use_awaitable));
    if (ec == asio::error::operation_aborted) co_return;
    if (ec) continue;
    asio::co_spawn(acceptor->get_executor(), serveConnection(std::move(step), state), asio::detached);
  }
}

unsigned short tcpPortOf(const Acceptor& acceptor, const EgressProxy::Listen& listen) {
  if (!std::holds_alternative<asio::ip::tcp::endpoint>(listen)) return 0;
  const auto local = acceptor.local_endpoint();
  asio::ip::tcp::endpoint tcp;
  tcp.resize(local.size());
  std::memcpy(tcp.data(), local.data(), local.size());
  return tcp.port();
}

}  // namespace

EgressProxy::EgressProxy(std::shared_ptr<ProxyState> state) : state_(std::move(state)) {}

Result<std::unique_ptr<EgressProxy>> EgressProxy::start(ProxyConfig config, const Listen& listen,
                                                        std::shared_ptr<NameResolver> resolver) {
  ignoreBrokenPipes();
  auto state = std::make_shared<ProxyState>();
  state->config = std::move(config);
  state->resolver = std::move(resolver);
  std::unique_ptr<EgressProxy> proxy(new EgressProxy(state));
  auto acceptor = std::make_shared<Acceptor>(proxy->io_);
  boost::system::error_code ec;
  const auto endpoint = endpointOf(listen);
  acceptor->open(endpoint.protocol(), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return makeError(ErrorCode::IoError, "the egress proxy cannot listen: " + ec.message(),
                     "check that the step's run directory is writable", "egress proxy");
  proxy->port_ = tcpPortOf(*acceptor, listen);
  asio::co_spawn(proxy->io_, acceptLoop(acceptor, state), asio::detached);
  proxy->thread_ = std::thread([io = &proxy->io_] { io->run(); });
  return proxy;
}

std::vector<ConnectionRecord> EgressProxy::finalRecords(std::chrono::milliseconds grace) const {
  const auto until = std::chrono::steady_clock::now() + grace;
  while (state_->open.load() > 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return state_->snapshot();
}

Result<std::unique_ptr<EgressProxy>> startStepProxy(const std::vector<EgressRule>& rules,
                                                    const EgressSettings& settings,
                                                    const std::filesystem::path& socket) {
  std::error_code ec;
  std::filesystem::create_directories(socket.parent_path(), ec);
  if (ec) return makeError(ErrorCode::IoError, "cannot create " + socket.parent_path().string() + ": " + ec.message());
  ProxyConfig config;
  config.rules = rules;
  config.allowedNetworks = settings.allowedNetworks;
  config.maxConnections = static_cast<std::size_t>(settings.maxConnections);
  config.maxBytes = static_cast<std::uint64_t>(settings.maxBytes);
  return EgressProxy::start(std::move(config), socket);
}

EgressProxy::~EgressProxy() {
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace lw::egress
