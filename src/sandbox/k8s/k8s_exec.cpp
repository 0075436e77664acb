#include "sandbox/k8s/k8s_exec.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <array>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/json/parse.hpp>

namespace lw::sandbox::k8s {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace json = boost::json;
using tcp = asio::ip::tcp;

constexpr const char* kProtocol = "v5.channel.k8s.io";
constexpr std::size_t kStdinChunk = 32 * 1024;

Error execFailed(const ExecRequest& r, const std::string& why) {
  return makeError(ErrorCode::SandboxLaunchFailed, "exec in pod " + r.ns + "/" + r.pod + " failed: " + why,
                   "check that the API server answers and that the runner may create pods/exec "
                   "(docs/kubernetes.md)",
                   r.pod);
}

// A silent server must not hold the step past its deadline: every read and
// write on the socket gives up then.
void boundByDeadline(tcp::socket& socket, std::chrono::steady_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - std::chrono::steady_clock::now());
  left = std::max(left, std::chrono::microseconds(1000));
  timeval tv{static_cast<time_t>(left.count() / 1000000), static_cast<suseconds_t>(left.count() % 1000000)};
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

// The exit code and message of the Status on channel 3.
ExecOutcome outcomeOf(const std::string& statusText) {
  ExecOutcome out;
  out.finished = true;
  boost::system::error_code ec;
  json::value v = json::parse(statusText, ec);
  const json::object* status = !ec ? v.if_object() : nullptr;
  if (status == nullptr) {
    out.failure = "an unreadable exec status";
    return out;
  }
  if (status->contains("status") && status->at("status") == "Success") {
    out.exitCode = 0;
    return out;
  }
  if (const json::value* m = status->if_contains("message"); m != nullptr && m->is_string())
    out.failure = std::string(m->as_string());
  const json::value* details = status->if_contains("details");
  const json::value* causes =
      details != nullptr && details->is_object() ? details->as_object().if_contains("causes") : nullptr;
  if (causes != nullptr && causes->is_array())
    for (const json::value& c : causes->as_array())
      if (c.is_object() && c.as_object().contains("reason") && c.at("reason") == "ExitCode" &&
          c.at("message").is_string())
        out.exitCode = std::atoi(c.at("message").as_string().c_str());
  return out;
}

// The reason the server gave for not upgrading: its Status message, or the status line.
std::string refusalOf(const websocket::response_type& res) {
  boost::system::error_code ec;
  json::value v = json::parse(res.body(), ec);
  if (!ec && v.is_object() && v.as_object().contains("message") && v.at("message").is_string())
    return "HTTP " + std::to_string(res.result_int()) + ": " + std::string(v.at("message").as_string());
  return "HTTP " + std::to_string(res.result_int()) + " instead of an upgrade";
}

// One message's stdout/stderr to onOutput; the outcome when it is channel 3.
std::optional<ExecOutcome> takeMessage(const ExecRequest& r, const std::string& message) {
  if (message.empty()) return std::nullopt;
  const int channel = static_cast<unsigned char>(message[0]);
  if ((channel == 1 || channel == 2) && r.onOutput && message.size() > 1)
    r.onOutput(channel, message.data() + 1, message.size() - 1);
  if (channel == 3) return outcomeOf(message.substr(1));
  return std::nullopt;
}

// Both directions at once on one io_context thread (a TLS stream allows no
// concurrent read and write from two threads): the stdin descriptor's bytes
// out on channel 0, each written before the next is read, and the output in.
template <class Next>
class Duplex {
 public:
  Duplex(websocket::stream<Next>& ws, const ExecRequest& r)
      : ws_(ws), r_(r), input_(ws.get_executor(), ::dup(r.stdinStream)), timer_(ws.get_executor()) {}

  ExecOutcome run(asio::io_context& io) {
    timer_.expires_at(r_.deadline);
    timer_.async_wait([this](boost::system::error_code ec) {
      if (!ec) beast::get_lowest_layer(ws_).close();  // past the deadline: the read fails, no outcome
    });
    readNext();
    pumpStdin();
    io.run();
    return outcome_;
  }

 private:
  void finish(std::optional<ExecOutcome> outcome) {
    if (outcome) outcome_ = *outcome;
    boost::system::error_code ignored;
    input_.close(ignored);
    timer_.cancel();
    beast::get_lowest_layer(ws_).close(ignored);
  }
  void readNext() {
    ws_.async_read(in_, [this](boost::system::error_code ec, std::size_t) {
      if (ec) return finish(std::nullopt);  // ended before the outcome
      std::string message = beast::buffers_to_string(in_.data());
      in_.consume(in_.size());
      if (auto outcome = takeMessage(r_, message)) return finish(outcome);
      readNext();
    });
  }
  void pumpStdin() {
    input_.async_read_some(asio::buffer(chunk_), [this](boost::system::error_code ec, std::size_t n) {
      out_ = ec ? std::string("\xff\x00", 2) : std::string(1, '\0') + std::string(chunk_.data(), n);
      const bool last = static_cast<bool>(ec);
      if (ec == asio::error::operation_aborted) return;
      ws_.async_write(asio::buffer(out_), [this, last](boost::system::error_code wec, std::size_t) {
        if (!wec && !last) pumpStdin();
      });
    });
  }

  websocket::stream<Next>& ws_;
  const ExecRequest& r_;
  asio::posix::stream_descriptor input_;
  asio::steady_timer timer_;
  beast::flat_buffer in_;
  std::array<char, kStdinChunk> chunk_{};
  std::string out_;
  ExecOutcome outcome_;
};

template <class Next>
Result<ExecOutcome> converse(websocket::stream<Next>& ws, const std::string& host, const std::string& token,
                             const ExecRequest& r) {
  ws.set_option(websocket::stream_base::decorator([&](websocket::request_type& req) {
    req.set(beast::http::field::authorization, "Bearer " + token);
    req.set(beast::http::field::sec_websocket_protocol, kProtocol);
  }));
  websocket::response_type res;
  boost::system::error_code ec;
  ws.handshake(res, host, execTarget(r), ec);
  if (ec) return execFailed(r, res.result_int() != 0 ? refusalOf(res) : ec.message());
  if (res[beast::http::field::sec_websocket_protocol] != kProtocol)
    return execFailed(r, "the API server did not accept the v5.channel.k8s.io protocol");
  ws.binary(true);
  if (r.stdinStream >= 0 && !r.stdinData) {
    Duplex<Next> duplex(ws, r);
    return duplex.run(static_cast<asio::io_context&>(ws.get_executor().context()));
  }
  if (r.stdinData) {
    for (std::size_t at = 0; at < r.stdinData->size() && !ec; at += kStdinChunk)
      ws.write(asio::buffer(std::string(1, '\0') + r.stdinData->substr(at, kStdinChunk)), ec);
    if (!ec) ws.write(asio::buffer(std::string("\xff\x00", 2)), ec);
    if (ec) return execFailed(r, "sending stdin: " + ec.message());
  }
  for (;;) {
    beast::flat_buffer buffer;
    ws.read(buffer, ec);
    if (ec) return ExecOutcome{};  // ended before the outcome
    if (auto outcome = takeMessage(r, beast::buffers_to_string(buffer.data()))) {
      ws.close(websocket::close_code::normal, ec);
      return *outcome;
    }
  }
}

Result<ExecOutcome> overTls(tcp::socket socket, const ServerAddress& a, const std::string& token,
                            const ClusterEndpoint& endpoint, const ExecRequest& r) {
  asio::ssl::context context(asio::ssl::context::tls_client);
  boost::system::error_code ec;
  if (!endpoint.caFile.empty())
    context.load_verify_file(endpoint.caFile, ec);
  else if (!endpoint.caPem.empty())
    context.add_certificate_authority(asio::buffer(endpoint.caPem), ec);
  else
    context.set_default_verify_paths(ec);
  if (ec) return execFailed(r, "the CA bundle: " + ec.message());
  context.set_verify_mode(asio::ssl::verify_peer);
  websocket::stream<asio::ssl::stream<tcp::socket>> ws(std::move(socket), context);
  ws.next_layer().set_verify_callback(asio::ssl::host_name_verification(a.host));
  SSL_set_tlsext_host_name(ws.next_layer().native_handle(), a.host.c_str());
  ws.next_layer().handshake(asio::ssl::stream_base::client, ec);
  if (ec) return execFailed(r, "TLS with " + a.host + ": " + ec.message());
  return converse(ws, a.host + ":" + a.port, token, r);
}

}  // namespace

std::optional<ServerAddress> serverAddress(const std::string& server) {
  ServerAddress a;
  std::string rest;
  if (server.starts_with("https://")) {
    a.tls = true;
    rest = server.substr(8);
  } else if (server.starts_with("http://")) {
    rest = server.substr(7);
  } else {
    return std::nullopt;
  }
  rest = rest.substr(0, rest.find('/'));
  const auto colon = rest.rfind(':');
  const bool hasPort = colon != std::string::npos && rest.find(']', colon) == std::string::npos;
  a.host = hasPort ? rest.substr(0, colon) : rest;
  a.port = hasPort ? rest.substr(colon + 1) : (a.tls ? "443" : "80");
  if (a.host.size() > 2 && a.host.front() == '[') a.host = a.host.substr(1, a.host.size() - 2);
  return a;
}

std::string execTarget(const ExecRequest& r) {
  std::string target = "/api/v1/namespaces/" + http::percentEncode(r.ns) + "/pods/" + http::percentEncode(r.pod) +
                       "/exec?container=" + http::percentEncode(r.container);
  for (const std::string& a : r.command) target += "&command=" + http::percentEncode(a);
  target += r.stdinData || r.stdinStream >= 0 ? "&stdin=true" : "";
  return target + "&stdout=true&stderr=true";
}

Result<ExecOutcome> execInPod(const ClusterEndpoint& endpoint, const ExecRequest& r) {
  auto address = serverAddress(endpoint.server);
  if (!address) return execFailed(r, "the server " + endpoint.server + " is not an http(s) URL");
  auto token = endpoint.token();
  if (!token) return execFailed(r, token.error().message);
  asio::io_context io;
  tcp::resolver resolver(io);
  boost::system::error_code ec;
  auto endpoints = resolver.resolve(address->host, address->port, ec);
  tcp::socket socket(io);
  if (!ec) asio::connect(socket, endpoints, ec);
  if (ec) return execFailed(r, "connecting to " + endpoint.server + ": " + ec.message());
  boundByDeadline(socket, r.deadline);
  if (address->tls) return overTls(std::move(socket), *address, *token, endpoint, r);
  websocket::stream<tcp::socket> ws(std::move(socket));
  return converse(ws, address->host + ":" + address->port, *token, r);
}

}  // namespace lw::sandbox::k8s
