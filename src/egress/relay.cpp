#include "egress/relay.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace lw::egress {

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kChunk = 1 << 20;  // per splice; the pipe holds what the socket gives

// Closing both sockets also ends the other direction's pending read.
RelayEnd cut(Stream& a, Stream& b, RelayEnd why) {
  boost::system::error_code ignored;
  a.close(ignored);
  b.close(ignored);
  return why;
}

// A pipe the kernel moves one direction's bytes through (splice(2)), so
// that they are never copied into the proxy: the relay then costs about
// what the second loopback hop costs, not two more copies of every byte.
class SplicePipe {
 public:
  SplicePipe() {
    if (::pipe2(fds_, O_CLOEXEC | O_NONBLOCK) != 0) fds_[0] = fds_[1] = -1;
  }
  ~SplicePipe() {
    for (int fd : fds_)
      if (fd >= 0) ::close(fd);
  }
  SplicePipe(const SplicePipe&) = delete;
  SplicePipe& operator=(const SplicePipe&) = delete;
  bool ok() const { return fds_[0] >= 0; }
  int readEnd() const { return fds_[0]; }
  int writeEnd() const { return fds_[1]; }

 private:
  int fds_[2] = {-1, -1};
};

constexpr unsigned kSpliceFlags = SPLICE_F_MOVE | SPLICE_F_NONBLOCK;

// Moves what the pipe holds (`n` bytes) on to `to`, waiting while its
// send buffer is full.
asio::awaitable<bool> drainPipe(SplicePipe& pipe, Stream& to, std::size_t n) {
  while (n > 0) {
    const ssize_t moved = ::splice(pipe.readEnd(), nullptr, to.native_handle(), nullptr, n, kSpliceFlags);
    if (moved > 0) {
      n -= static_cast<std::size_t>(moved);
      continue;
    }
    if (moved < 0 && errno == EAGAIN) {
      auto [ec] = co_await to.async_wait(asio::socket_base::wait_write, asio::as_tuple(asio::use_awaitable));
      if (!ec) continue;
    }
    co_return false;
  }
  co_return true;
}

// One direction until `from` closes; then `to` is told no more comes.
asio::awaitable<RelayEnd> pump(Stream& from, Stream& to, std::uint64_t& counter, Clock::time_point& lastActivity,
                               ProxyState& state) {
  SplicePipe pipe;
  if (!pipe.ok()) co_return cut(from, to, RelayEnd::Error);
  from.native_non_blocking(true);
  to.native_non_blocking(true);
  for (;;) {
    const ssize_t n = ::splice(from.native_handle(), nullptr, pipe.writeEnd(), nullptr, kChunk, kSpliceFlags);
    if (n < 0 && errno == EAGAIN) {
      auto [ec] = co_await from.async_wait(asio::socket_base::wait_read, asio::as_tuple(asio::use_awaitable));
      if (ec) break;
      continue;
    }
    if (n <= 0) break;  // the end of the stream, or it was reset
    if (!state.spend(static_cast<std::size_t>(n))) co_return cut(from, to, RelayEnd::BudgetSpent);
    if (!co_await drainPipe(pipe, to, static_cast<std::size_t>(n))) co_return cut(from, to, RelayEnd::Error);
    counter += static_cast<std::uint64_t>(n);
    lastActivity = Clock::now();
  }
  boost::system::error_code ignored;
  to.shutdown(asio::socket_base::shutdown_send, ignored);
  co_return RelayEnd::Closed;
}

// Returns when nothing has moved for the idle timeout.
asio::awaitable<RelayEnd> idleWatch(const Clock::time_point& lastActivity, std::chrono::milliseconds idle) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (;;) {
    timer.expires_at(lastActivity + idle);
    co_await timer.async_wait(asio::use_awaitable);
    if (Clock::now() - lastActivity >= idle) co_return RelayEnd::IdleTimeout;
  }
}

// The first end that is not a clean close, else Closed.
RelayEnd worse(RelayEnd a, RelayEnd b) { return a != RelayEnd::Closed ? a : b; }

RelayEnd endOf(const std::variant<std::tuple<RelayEnd, RelayEnd>, RelayEnd>& v) {
  if (v.index() == 1) return std::get<1>(v);
  const auto& [up, down] = std::get<0>(v);
  return worse(up, down);
}

}  // namespace

asio::awaitable<RelayEnd> relayBothWays(Stream& step, Stream& destination, ConnectionRecord& r, ProxyState& state) {
  Clock::time_point lastActivity = Clock::now();
  auto ended = co_await ((pump(step, destination, r.bytesSent, lastActivity, state) &&
                          pump(destination, step, r.bytesReceived, lastActivity, state)) ||
                         idleWatch(lastActivity, state.config.idleTimeout));
  co_return endOf(ended);
}

asio::awaitable<RelayEnd> relayResponse(Stream& destination, Stream& step, ConnectionRecord& r, ProxyState& state) {
  Clock::time_point lastActivity = Clock::now();
  auto ended = co_await (pump(destination, step, r.bytesReceived, lastActivity, state) ||
                         idleWatch(lastActivity, state.config.idleTimeout));
  co_return ended.index() == 0 ? std::get<0>(ended) : std::get<1>(ended);
}

std::string_view describe(RelayEnd end) {
  switch (end) {
    case RelayEnd::Closed: return "closed";
    case RelayEnd::IdleTimeout: return "cut: idle for longer than the idle timeout";
    case RelayEnd::BudgetSpent: return "cut: the step's egress byte limit is spent";
    case RelayEnd::Error: return "cut: a write failed";
  }
  return "?";
}

void ignoreBrokenPipes() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, nullptr);
}

}  // namespace lw::egress
