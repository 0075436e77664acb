#include <doctest/doctest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "core/http_curl.h"
#include "support/local_http_server.h"

using namespace lw;
using lw::test::LocalHttpServer;
using namespace std::chrono_literals;

namespace {

// A server on 127.0.0.1 that answers with `reply` and counts what it got.
struct Server {
  explicit Server(std::function<LocalHttpServer::Response(const LocalHttpServer::Request&)> reply)
      : server("test", [this, reply](const LocalHttpServer::Request& r) -> std::optional<LocalHttpServer::Response> {
          {
            std::lock_guard lock(mu);
            seen.push_back(r);
          }
          return reply(r);
        }) {}
  std::string url(const std::string& host = "127.0.0.1") const {
    return "http://" + host + ":" + std::to_string(server.port());
  }
  std::vector<LocalHttpServer::Request> requests() {
    std::lock_guard lock(mu);
    return seen;
  }
  std::mutex mu;
  std::vector<LocalHttpServer::Request> seen;
  LocalHttpServer server;
};

LocalHttpServer::Response answer(int status, std::string body = {}, std::map<std::string, std::string> headers = {}) {
  return LocalHttpServer::Response{status, std::move(headers), std::move(body)};
}

http::Request get(std::string url) {
  http::Request r;
  r.url = std::move(url);
  r.headers = {{"Authorization", "Bearer secret-token"}};
  r.timeout = 5000ms;
  return r;
}

http::Policy following() {
  http::Policy p;
  p.maxRedirects = 3;
  return p;
}

}  // namespace

TEST_CASE("http transport: a redirect to another host is refused, and nothing is sent there") {
  Server other([](const auto&) { return answer(200, "other"); });
  Server first([&](const auto&) { return answer(302, "", {{"Location", other.url("localhost") + "/landing"}}); });
  http::CurlTransport transport(following());
  const http::Response r = transport.send(get(first.url() + "/start"));
  CHECK(r.failure == http::Failure::kRefused);
  CHECK(r.status == 0);
  CHECK(r.error.find("to another origin (http://localhost:" + std::to_string(other.server.port()) + ")") !=
        std::string::npos);
  CHECK(r.error.find("secret-token") == std::string::npos);
  CHECK(first.requests().size() == 1);
  CHECK(other.requests().empty());
}

TEST_CASE("http transport: same-origin redirects are followed up to the bound, a 307 keeps the POST") {
  Server server([](const LocalHttpServer::Request& r) {
    if (r.target == "/old") return answer(307, "", {{"Location", "/new"}});
    if (r.target == "/loop") return answer(301, "", {{"Location", "/loop"}});
    return answer(201, r.method + " " + r.body);
  });
  http::CurlTransport transport(following());
  http::Request post = get(server.url() + "/old");
  post.method = "POST";
  post.body = R"({"a":1})";
  const http::Response moved = transport.send(post);
  REQUIRE(moved.answered());
  CHECK(moved.status == 201);
  CHECK(moved.body == R"(POST {"a":1})");
  CHECK(server.requests().back().headers.at("authorization") == "Bearer secret-token");

  const http::Response loop = transport.send(get(server.url() + "/loop"));
  CHECK(loop.failure == http::Failure::kRefused);
  CHECK(loop.error.starts_with("more than 3 redirects"));
  CHECK(server.requests().size() == 2 + 4);

  http::Request head = get(server.url() + "/new");
  head.method = "HEAD";
  const http::Response headers = transport.send(head);
  REQUIRE(headers.answered());
  CHECK(headers.status == 201);
  CHECK(headers.body.empty());
  CHECK(server.requests().back().method == "HEAD");

  // Without redirects in the policy, the 3xx is the answer.
  http::CurlTransport strict{http::Policy{}};
  const http::Response asIs = strict.send(get(server.url() + "/old"));
  REQUIRE(asIs.answered());
  CHECK(asIs.status == 307);
  CHECK(asIs.header("location") == "/new");
}

TEST_CASE("http transport: bodies over the bounds are cut with an error, or not sent") {
  Server server([](const auto&) { return answer(200, std::string(2u << 20, 'x')); });
  http::Policy small;
  small.maxResponseBytes = 1u << 20;
  small.maxRequestBytes = 1024;
  http::CurlTransport transport(small);
  const http::Response big = transport.send(get(server.url() + "/big"));
  CHECK(big.failure == http::Failure::kTooLarge);
  CHECK(big.error == "response larger than 1048576 bytes");
  CHECK(big.body.empty());

  http::Request upload = get(server.url() + "/upload");
  upload.method = "POST";
  upload.body = std::string(1025, 'y');
  const std::size_t before = server.requests().size();
  const http::Response refused = transport.send(upload);
  CHECK(refused.failure == http::Failure::kTooLarge);
  CHECK(refused.error == "request body of 1025 bytes is larger than the bound of 1024");
  CHECK(server.requests().size() == before);

  // A sink takes the whole body in pieces: it bounds its own memory.
  std::size_t streamed = 0;
  http::Request logs = get(server.url() + "/logs");
  logs.sink = [&](std::string_view piece) { streamed += piece.size(); };
  const http::Response sunk = transport.send(logs);
  REQUIRE(sunk.answered());
  CHECK(streamed == 2u << 20);
  CHECK(sunk.body.empty());
}

TEST_CASE("http transport: the request's timeout ends an exchange the server does not answer") {
  std::mutex mu;
  std::condition_variable cv;
  bool released = false;
  auto release = [&] {
    std::lock_guard lock(mu);
    released = true;
    cv.notify_all();
  };
  LocalHttpServer slow(
      "slow",
      [&](const auto&) -> std::optional<LocalHttpServer::Response> {
        std::unique_lock lock(mu);
        cv.wait_for(lock, 10s, [&] { return released; });
        return answer(200, "late");
      },
      release);
  http::CurlTransport transport{http::Policy{}};
  http::Request r = get("http://127.0.0.1:" + std::to_string(slow.port()) + "/");
  r.timeout = 300ms;
  const auto start = std::chrono::steady_clock::now();
  const http::Response out = transport.send(r);
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(out.failure == http::Failure::kTimedOut);
  CHECK(out.error == "Timeout was reached");
  CHECK(took < 3s);
  release();
}

TEST_CASE("http transport: plain http to another machine is refused before any connection") {
  http::CurlTransport transport{http::Policy{}};
  const http::Response r = transport.send(get("http://models.invalid/v1/chat"));
  CHECK(r.failure == http::Failure::kRefused);
  CHECK(r.error == "plain http is allowed only to this machine, not to models.invalid (use https)");
  CHECK(transport.send(get("ftp://127.0.0.1/x")).failure == http::Failure::kRefused);
  CHECK(transport.send(get("not a url")).failure == http::Failure::kRefused);
}

TEST_CASE("http transport: this machine is reached directly even when a proxy is configured") {
  Server server([](const auto&) { return answer(200, "direct"); });
  Server proxy([](const auto&) { return answer(200, "via proxy"); });
  http::Policy p;
  p.proxy = http::Proxy::kFromEnvironment;
  ::setenv("http_proxy", proxy.url().c_str(), 1);
  const http::Response r = http::CurlTransport(p).send(get(server.url() + "/"));
  ::unsetenv("http_proxy");
  REQUIRE(r.answered());
  CHECK(r.body == "direct");
  CHECK(proxy.requests().empty());
}

TEST_CASE("http transport: a request over a unix socket") {
  namespace asio = boost::asio;
  namespace beast = boost::beast;
  const std::string path =
      (std::filesystem::temp_directory_path() / ("lw-http-" + std::to_string(::getpid()) + ".sock")).string();
  ::unlink(path.c_str());
  asio::io_context io;
  asio::local::stream_protocol::acceptor acceptor(io, asio::local::stream_protocol::endpoint(path));
  std::string seen;
  std::thread engine([&] {
    asio::local::stream_protocol::socket sock(io);
    acceptor.accept(sock);
    beast::flat_buffer buffer;
    beast::http::request<beast::http::string_body> req;
    beast::http::read(sock, buffer, req);
    seen = std::string(req.method_string()) + " " + std::string(req.target()) + " " + req.body();
    beast::http::response<beast::http::string_body> res{beast::http::status::created, req.version()};
    res.body() = R"({"Id":"abc"})";
    res.keep_alive(false);
    res.prepare_payload();
    beast::http::write(sock, res);
  });
  http::Policy p;
  p.unixSocket = path;
  http::Request r;
  r.method = "POST";
  r.url = "http://docker/v1.41/containers/create";
  r.body = "{}";
  const http::Response out = http::CurlTransport(p).send(r);
  engine.join();
  ::unlink(path.c_str());
  REQUIRE(out.answered());
  CHECK(out.status == 201);
  CHECK(out.body == R"({"Id":"abc"})");
  CHECK(seen == "POST /v1.41/containers/create {}");

  const http::Response gone = http::CurlTransport(p).send(r);
  CHECK(gone.failure == http::Failure::kUnreachable);
  CHECK(gone.error == "Couldn't connect to server at " + path);
}
