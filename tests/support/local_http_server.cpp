#include "support/local_http_server.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <vector>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>

namespace lw::test {

namespace local_http {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// The handler's view of a Beast WebSocket over the connection's stream.
template <class Stream>
class BeastWebSocket final : public LocalHttpServer::WebSocket {
 public:
  explicit BeastWebSocket(Stream& stream) : ws_(stream) { ws_.binary(true); }
  beast::websocket::stream<Stream&>& stream() { return ws_; }
  std::optional<std::string> read() override {
    beast::flat_buffer buffer;
    boost::system::error_code ec;
    ws_.read(buffer, ec);
    if (ec) return std::nullopt;
    return beast::buffers_to_string(buffer.data());
  }
  bool write(const std::string& message) override {
    boost::system::error_code ec;
    ws_.write(asio::buffer(message), ec);
    return !ec;
  }
  void close() override {
    boost::system::error_code ec;
    ws_.close(beast::websocket::close_code::normal, ec);
  }

 private:
  beast::websocket::stream<Stream&> ws_;
};

// Accepts the upgrade `req` asked for with the answer's subprotocol, and runs it.
template <class Stream>
void runWebSocket(Stream& sock, const http::request<http::string_body>& req, const LocalHttpServer::Response& reply,
                  const std::string& serverName) {
  BeastWebSocket<Stream> ws(sock);
  auto protocol = reply.headers.find("Sec-WebSocket-Protocol");
  const std::string accepted = protocol == reply.headers.end() ? "" : protocol->second;
  ws.stream().set_option(beast::websocket::stream_base::decorator([&](beast::websocket::response_type& res) {
    res.set(http::field::server, serverName);
    if (!accepted.empty()) res.set(http::field::sec_websocket_protocol, accepted);
  }));
  boost::system::error_code ec;
  ws.stream().accept(req, ec);
  if (ec) return;
  reply.upgrade(ws);
  ws.close();
}
}  // namespace local_http

struct LocalHttpServer::State {
  local_http::asio::io_context io;
  local_http::tcp::acceptor acceptor{io};
  unsigned short port = 0;
  std::atomic<bool> stopping{false};
  std::string serverName;
  Handler handler;
  std::function<void()> onStop;
  std::mutex mu;
  std::vector<std::shared_ptr<local_http::tcp::socket>> sockets;
  std::vector<std::thread> connections;
  std::unique_ptr<local_http::asio::ssl::context> tls;  // null: plain http
};

LocalHttpServer::LocalHttpServer(std::string serverName, Handler handler, std::function<void()> onStop)
    : state_(std::make_unique<State>()) {
  using namespace local_http;
  state_->serverName = std::move(serverName);
  state_->handler = std::move(handler);
  state_->onStop = std::move(onStop);
  tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
  state_->acceptor.open(ep.protocol());
  state_->acceptor.set_option(asio::socket_base::reuse_address(true));
  state_->acceptor.bind(ep);
  state_->acceptor.listen();
  state_->port = state_->acceptor.local_endpoint().port();
  acceptor_ = std::thread([this] { acceptLoop(); });
}

LocalHttpServer::LocalHttpServer(std::string serverName, Handler handler, Tls tls)
    : LocalHttpServer(std::move(serverName), std::move(handler)) {
  using namespace local_http;
  // Set before anyone knows the port: serve() reads it per connection.
  auto context = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  context->use_certificate_chain_file(tls.certificateChainFile);
  context->use_private_key_file(tls.privateKeyFile, asio::ssl::context::pem);
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->tls = std::move(context);
}

LocalHttpServer::~LocalHttpServer() {
  using namespace local_http;
  state_->stopping = true;
  if (state_->onStop) state_->onStop();
  {
    // Wake the blocking accept with a connection of our own.
    boost::system::error_code ec;
    asio::io_context io;
    tcp::socket s(io);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), state_->port), ec);
  }
  acceptor_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    for (auto& s : state_->sockets) {
      boost::system::error_code ec;
      s->shutdown(tcp::socket::shutdown_both, ec);
    }
    threads.swap(state_->connections);
  }
  for (auto& t : threads) t.join();
}

unsigned short LocalHttpServer::port() const { return state_->port; }

void LocalHttpServer::acceptLoop() {
  using namespace local_http;
  for (;;) {
    auto sock = std::make_shared<tcp::socket>(state_->io);
    boost::system::error_code ec;
    state_->acceptor.accept(*sock, ec);
    if (state_->stopping) return;
    if (ec) continue;
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->sockets.push_back(sock);
    state_->connections.emplace_back([this, sock] { serve(sock.get()); });
  }
}

void LocalHttpServer::serve(void* raw) {
  using namespace local_http;
  tcp::socket& sock = *static_cast<tcp::socket*>(raw);
  asio::ssl::context* tls = nullptr;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    tls = state_->tls.get();
  }
  if (tls == nullptr) return exchange(sock);
  asio::ssl::stream<tcp::socket&> stream(sock, *tls);
  boost::system::error_code ec;
  stream.handshake(asio::ssl::stream_base::server, ec);
  if (ec) {
    sock.shutdown(tcp::socket::shutdown_both, ec);
    return;
  }
  exchange(stream);
}

template <class Stream>
void LocalHttpServer::exchange(Stream& sock) {
  using namespace local_http;
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    boost::system::error_code ec;
    http::read(sock, buffer, req, ec);
    if (ec) return;
    Request rec;
    rec.method = std::string(req.method_string());
    rec.target = std::string(req.target());
    for (const auto& f : req) {
      std::string name(f.name_string());
      std::transform(name.begin(), name.end(), name.begin(), ::tolower);
      rec.headers[name] = std::string(f.value());
    }
    rec.body = req.body();
    std::optional<Response> reply = state_->handler(rec);
    if (!reply || state_->stopping) {
      boost::system::error_code ignore;
      beast::get_lowest_layer(sock).shutdown(tcp::socket::shutdown_both, ignore);
      return;
    }
    if (reply->upgrade && beast::websocket::is_upgrade(req)) return runWebSocket(sock, req, *reply, state_->serverName);
    http::response<http::string_body> res{static_cast<http::status>(reply->status), req.version()};
    res.set(http::field::server, state_->serverName);
    for (const auto& [k, v] : reply->headers) res.set(k, v);
    res.body() = std::move(reply->body);
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    http::write(sock, res, ec);
    if (ec || !req.keep_alive()) {
      boost::system::error_code ignore;
      beast::get_lowest_layer(sock).shutdown(tcp::socket::shutdown_send, ignore);
      return;
    }
  }
}

}  // namespace lw::test
