#include "egress/proxy_session.h"

#include <optional>
#include <variant>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include "egress/client_hello.h"
#include "egress/request_target.h"

namespace lw::egress {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using namespace asio::experimental::awaitable_operators;

namespace {

using Parser = http::request_parser<http::buffer_body>;
constexpr auto kAwait = asio::as_tuple(asio::use_awaitable);
// A TLS fatal alert, unrecognized_name (RFC 8446 §6.2): what a client that
// sent another name than it asked CONNECT for is told.
constexpr unsigned char kUnrecognizedNameAlert[] = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x70};

asio::awaitable<bool> sleepFor(std::chrono::milliseconds d) {
  asio::steady_timer timer(co_await asio::this_coro::executor, d);
  co_await timer.async_wait(kAwait);
  co_return false;
}

asio::awaitable<bool> readHead(Stream& step, boost::beast::flat_buffer& buffer, Parser& parser, ProxyState& state) {
  auto read = [&]() -> asio::awaitable<bool> {
    auto [ec, n] = co_await http::async_read_header(step, buffer, parser, kAwait);
    co_return !ec;
  };
  auto r = co_await (read() || sleepFor(state.config.headTimeout));
  co_return r.index() == 0 && std::get<0>(r);
}

// The answer to a request the proxy does not carry out; the body names the
// policy so that a person (or an agent) reading it knows where to look.
asio::awaitable<void> refuse(Stream& step, http::status status, const std::string& reason) {
  http::response<http::string_body> res{status, 11};
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.set("X-Loopwright-Egress", "denied");
  res.keep_alive(false);
  res.body() = "loopwright egress proxy: " + reason +
               "\nThis step's egress list is sandbox.egress in the taskpack; see docs/egress.md.\n";
  res.prepare_payload();
  co_await http::async_write(step, res, kAwait);
}

// The addresses of an allowed name, or why none may be used: a name that
// resolves to any forbidden address is refused as a whole, because the
// client cannot tell which of them the proxy would pick.
asio::awaitable<std::variant<std::vector<asio::ip::address>, std::string>> allowedAddresses(const std::string& host,
                                                                                            ProxyState& state) {
  auto addresses = co_await state.resolver->resolve(host);
  if (addresses.empty()) co_return host + " does not resolve";
  for (const auto& a : addresses)
    if (auto why = addressRefusal(a, state.config.allowedNetworks)) co_return host + " resolves to " + *why;
  co_return addresses;
}

asio::awaitable<std::optional<Stream>> connectTo(const std::vector<asio::ip::address>& addresses, int port,
                                                 ConnectionRecord& r, ProxyState& state) {
  auto executor = co_await asio::this_coro::executor;
  for (const auto& a : addresses) {
    const asio::ip::tcp::endpoint endpoint(a, static_cast<unsigned short>(port));
    Stream upstream(executor);
    auto connect = [&]() -> asio::awaitable<bool> {
      auto [ec] = co_await upstream.async_connect(endpoint, kAwait);
      co_return !ec;
    };
    auto done = co_await (connect() || sleepFor(state.config.connectTimeout));
    if (done.index() == 0 && std::get<0>(done)) {
      r.address = endpoint.address().to_string();
      co_return std::move(upstream);
    }
  }
  co_return std::nullopt;
}

// The ClientHello the step sends first through its tunnel (some of it may
// already be in `buffer`, read with the CONNECT head).
asio::awaitable<ClientHelloRead> readHello(Stream& step, boost::beast::flat_buffer& buffer, ProxyState& state) {
  auto read = [&]() -> asio::awaitable<ClientHelloRead> {
    for (;;) {
      auto data = buffer.data();
      auto hello = readClientHello({static_cast<const unsigned char*>(data.data()), data.size()});
      if (hello.kind != ClientHelloRead::Kind::NeedMore) co_return hello;
      auto [ec, n] = co_await step.async_read_some(buffer.prepare(4096), kAwait);
      if (ec) co_return ClientHelloRead{ClientHelloRead::Kind::Malformed, "the client closed before its ClientHello"};
      buffer.commit(n);
    }
  };
  auto r = co_await (read() || sleepFor(state.config.headTimeout));
  if (r.index() == 1) co_return ClientHelloRead{ClientHelloRead::Kind::Malformed, "no ClientHello within the timeout"};
  co_return std::get<0>(std::move(r));
}

// Why the tunnel's handshake is refused, or nullopt when it names `host`.
std::optional<std::string> helloRefusal(const ClientHelloRead& hello, const std::string& host) {
  if (hello.kind != ClientHelloRead::Kind::Name)
    return "a CONNECT tunnel carries TLS with a server name only: " + hello.name;
  if (canonicalHostName(hello.name) != host)
    return "the TLS server name '" + hello.name + "' is not the host CONNECT named (" + host + ")";
  return std::nullopt;
}

asio::awaitable<void> tunnel(Stream& step, Stream& upstream, boost::beast::flat_buffer& buffer, const std::string& host,
                             ConnectionRecord& r, ProxyState& state) {
  static constexpr std::string_view kEstablished = "HTTP/1.1 200 Connection established\r\n\r\n";
  co_await asio::async_write(step, asio::buffer(kEstablished), kAwait);
  const ClientHelloRead hello = co_await readHello(step, buffer, state);
  if (auto why = helloRefusal(hello, host)) {
    co_await asio::async_write(step, asio::buffer(kUnrecognizedNameAlert), kAwait);
    r.allowed = false;
    r.reason = *why;
    co_return;
  }
  const std::size_t first = buffer.size();
  if (!state.spend(first)) co_return;
  co_await asio::async_write(upstream, buffer.data(), kAwait);
  r.bytesSent += first;
  const RelayEnd end = co_await relayBothWays(step, upstream, r, state);
  if (end != RelayEnd::Closed) r.reason += "; " + std::string(describe(end));
}

// The request head as the destination gets it: origin-form target, no
// proxy headers, and the connection closed after one response so that a
// second request on it cannot skip the check.
void rewriteForOrigin(Parser& parser, const ProxyRequest& request) {
  auto& head = parser.get();
  head.target(request.originTarget);
  head.erase(http::field::proxy_authorization);
  head.erase("Proxy-Connection");
  head.keep_alive(false);
}

// Copies the request body as the parser reads it (the relay of Beast's
// documentation), counting it against the step's budget.
asio::awaitable<bool> forwardRequest(Stream& step, Stream& upstream, boost::beast::flat_buffer& buffer, Parser& parser,
                                     ConnectionRecord& r, ProxyState& state) {
  std::array<char, 16 * 1024> chunk;
  http::request_serializer<http::buffer_body> serializer{parser.get()};
  auto [headerError, headerBytes] = co_await http::async_write_header(upstream, serializer, kAwait);
  if (headerError) co_return false;
  r.bytesSent += headerBytes;
  do {
    auto& body = parser.get().body();
    if (!parser.is_done()) {
      body.data = chunk.data();
      body.size = chunk.size();
      auto [ec, n] = co_await http::async_read(step, buffer, parser, kAwait);
      if (ec && ec != http::error::need_buffer) co_return false;
      body.size = chunk.size() - body.size;
      body.data = chunk.data();
      body.more = !parser.is_done();
      if (!state.spend(body.size)) co_return false;
      r.bytesSent += body.size;
    } else {
      body.data = nullptr;
      body.size = 0;
    }
    auto [ec, n] = co_await http::async_write(upstream, serializer, kAwait);
    if (ec && ec != http::error::need_buffer) co_return false;
  } while (!parser.is_done() && !serializer.is_done());
  co_return true;
}

asio::awaitable<void> forwardPlain(Stream& step, Stream& upstream, boost::beast::flat_buffer& buffer, Parser& parser,
                                   const ProxyRequest& request, ConnectionRecord& r, ProxyState& state) {
  rewriteForOrigin(parser, request);
  if (!co_await forwardRequest(step, upstream, buffer, parser, r, state)) {
    r.reason += "; cut: the request could not be forwarded whole";
    co_return;
  }
  const RelayEnd end = co_await relayResponse(upstream, step, r, state);
  if (end != RelayEnd::Closed) r.reason += "; " + std::string(describe(end));
}

// The name and address decisions; a refusal is answered and recorded.
asio::awaitable<std::optional<Stream>> admit(Stream& step, const ProxyRequest& request, ConnectionRecord& r,
                                             ProxyState& state) {
  const NameDecision name = decideName(state.config.rules, request.destination);
  r.reason = name.reason;
  if (!name.allowed) {
    co_await refuse(step, http::status::forbidden, name.reason);
    co_return std::nullopt;
  }
  auto addresses = co_await allowedAddresses(name.host, state);
  if (auto* why = std::get_if<std::string>(&addresses)) {
    r.reason = *why;
    co_await refuse(step, http::status::forbidden, *why);
    co_return std::nullopt;
  }
  auto upstream = co_await connectTo(std::get<0>(addresses), request.destination.port, r, state);
  if (!upstream) {
    r.reason = "could not connect to " + name.host + ":" + std::to_string(request.destination.port);
    co_await refuse(step, http::status::bad_gateway, r.reason);
    co_return std::nullopt;
  }
  r.allowed = true;
  co_return upstream;
}

asio::awaitable<void> serve(Stream& step, ConnectionRecord& r, ProxyState& state) {
  boost::beast::flat_buffer buffer;
  Parser parser;
  parser.header_limit(16 * 1024);
  parser.body_limit(boost::none);  // counted against the step's byte budget instead
  if (!co_await readHead(step, buffer, parser, state)) {
    r.reason = "no valid request head within the timeout";
    co_return;
  }
  const auto& head = parser.get();
  auto host = head.find(http::field::host);
  auto read = readProxyRequest(std::string(head.method_string()), std::string(head.target()),
                               host == head.end() ? std::nullopt : std::optional<std::string_view>(host->value()));
  if (auto* why = std::get_if<std::string>(&read)) {
    r.reason = *why;
    co_await refuse(step, http::status::bad_request, *why);
    co_return;
  }
  const ProxyRequest& request = std::get<ProxyRequest>(read);
  r.host = request.destination.host;
  r.port = request.destination.port;
  r.tunnel = request.tunnel;
  if (state.connections.fetch_add(1) >= state.config.maxConnections) {
    r.reason = "the step's egress connection limit (" + std::to_string(state.config.maxConnections) + ") is spent";
    co_await refuse(step, http::status::forbidden, r.reason);
    co_return;
  }
  auto upstream = co_await admit(step, request, r, state);
  if (!upstream) co_return;
  if (request.tunnel)
    co_await tunnel(step, *upstream, buffer, *canonicalHostName(request.destination.host), r, state);
  else
    co_await forwardPlain(step, *upstream, buffer, parser, request, r, state);
}

}  // namespace

asio::awaitable<void> serveConnection(Stream step, std::shared_ptr<ProxyState> state) {
  ++state->open;
  ConnectionRecord r;
  const auto started = std::chrono::steady_clock::now();
  r.startedMs = std::chrono::duration_cast<std::chrono::milliseconds>(started - state->started).count();
  try {
    co_await serve(step, r, *state);
  } catch (const std::exception& e) {
    r.reason += std::string(r.reason.empty() ? "" : "; ") + "cut: " + e.what();
  }
  r.durationMs =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  state->add(std::move(r));
  --state->open;
}

}  // namespace lw::egress
