// Compiled twice: into lw_egress, and into loopwright-container-init, the
// static step init that runs it inside a sandbox (CMakeLists.txt). That is
// why the command starts with posix_spawnp, not Boost.Process: the init
// links libc alone and no sanitizer runtime (a sanitizer's shadow memory
// cannot be reserved under a step's RLIMIT_DATA).
#include "egress/step_relay.h"

#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/basic_socket_acceptor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "egress/relay.h"

namespace lw::egress {

namespace asio = boost::asio;
using Acceptor = asio::basic_socket_acceptor<asio::generic::stream_protocol>;

namespace {

// The relay moves bytes only: the proxy owns the step's limits and timeouts.
std::shared_ptr<ProxyState> unlimited() {
  auto state = std::make_shared<ProxyState>();
  state->config.maxBytes = ~std::uint64_t{0} >> 1;
  state->config.idleTimeout = std::chrono::hours(24 * 365);
  return state;
}

asio::awaitable<void> carry(Stream step, std::filesystem::path proxySocket, std::shared_ptr<ProxyState> state) {
  Stream proxy(step.get_executor());
  auto [ec] = co_await proxy.async_connect(asio::local::stream_protocol::endpoint(proxySocket.string()),
                                           asio::as_tuple(asio::use_awaitable));
  if (ec) co_return;  // the step sees its connection closed
  ConnectionRecord unused;
  co_await relayBothWays(step, proxy, unused, *state);
}

asio::awaitable<void> acceptLoop(std::shared_ptr<Acceptor> acceptor, std::filesystem::path proxySocket) {
  auto state = unlimited();
  for (;;) {
    auto [ec, step] = co_await acceptor->async_accept(asio::as_tuple(asio::use_awaitable));
    if (ec == asio::error::operation_aborted) co_return;
    if (ec) continue;
    asio::co_spawn(acceptor->get_executor(), carry(std::move(step), proxySocket, state), asio::detached);
  }
}

// What the step sees when the relay cannot do its job: a line on stderr
// and the exit status 127, as when a command is not found.
int fail(const std::string& what) {
  std::fprintf(stderr, "loopwright egress relay: %s\n", what.c_str());
  return 127;
}

std::shared_ptr<Acceptor> listenOn(asio::io_context& io, unsigned short port) {
  auto acceptor = std::make_shared<Acceptor>(io);
  const asio::generic::stream_protocol::endpoint endpoint(
      asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  boost::system::error_code ec;
  acceptor->open(endpoint.protocol(), ec);
  if (!ec) acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    fail("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + ec.message());
    return nullptr;
  }
  return acceptor;
}

int shellStatus(int native) {
  if (WIFSIGNALED(native)) return 128 + WTERMSIG(native);
  return WEXITSTATUS(native);
}

}  // namespace

void relayEachConnection(asio::io_context& io, int listener, const std::filesystem::path& proxySocket) {
  auto acceptor = std::make_shared<Acceptor>(io);
  boost::system::error_code ec;
  acceptor->assign(asio::generic::stream_protocol(AF_INET, IPPROTO_TCP), listener, ec);
  if (ec) {
    ::close(listener);
    return;  // the step's connections are refused: it has no way out, never another one
  }
  asio::co_spawn(io, acceptLoop(acceptor, proxySocket), asio::detached);
}

int runWithRelay(const std::filesystem::path& proxySocket, unsigned short port, const std::vector<std::string>& argv) {
  if (argv.empty()) return fail("no command to run");
  asio::io_context io;
  auto acceptor = listenOn(io, port);
  if (!acceptor) return 127;
  asio::co_spawn(io, acceptLoop(acceptor, proxySocket), asio::detached);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ignoreBrokenPipes();
  // The command gets SIGPIPE's default back: an ignored signal stays
  // ignored across exec, and `yes | head` must end.
  posix_spawnattr_t attr;
  sigset_t pipeSignal;
  ::posix_spawnattr_init(&attr);
  sigemptyset(&pipeSignal);
  sigaddset(&pipeSignal, SIGPIPE);
  ::posix_spawnattr_setsigdefault(&attr, &pipeSignal);
  ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, args[0], nullptr, &attr, args.data(), environ);
  ::posix_spawnattr_destroy(&attr);
  if (err != 0) return fail("cannot start '" + argv[0] + "': " + std::strerror(err));
  int native = 0;
  std::thread waiter([&] {
    while (::waitpid(pid, &native, 0) < 0 && errno == EINTR) {}
    asio::post(io, [&io] { io.stop(); });
  });
  io.run();
  waiter.join();
  return shellStatus(native);
}

}  // namespace lw::egress
