#include "egress/relay.h"

#include <array>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace lw::egress {

namespace asio = boost::asio;
using namespace asio::experimental::awaitable_operators;

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kChunk = 64 * 1024;

// Closing both sockets also ends the other direction's pending read.
RelayEnd cut(Stream& a, Stream& b, RelayEnd why) {
  boost::system::error_code ignored;
  a.close(ignored);
  b.close(ignored);
  return why;
}

// One direction until `from` closes; then `to` is told no more comes.
asio::awaitable<RelayEnd> pump(Stream& from, Stream& to, std::uint64_t& counter, Clock::time_point& lastActivity,
                               ProxyState& state) {
  std::array<char, kChunk> chunk;
  for (;;) {
    auto [readError, n] = co_await from.async_read_some(asio::buffer(chunk), asio::as_tuple(asio::use_awaitable));
    if (readError) break;
    if (!state.spend(n)) co_return cut(from, to, RelayEnd::BudgetSpent);
    auto [writeError, written] =
        co_await asio::async_write(to, asio::buffer(chunk.data(), n), asio::as_tuple(asio::use_awaitable));
    if (writeError) co_return cut(from, to, RelayEnd::Error);
    counter += written;
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

}  // namespace lw::egress
