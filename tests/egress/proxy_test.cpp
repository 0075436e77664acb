// The egress proxy with real clients (curl, openssl s_client) and servers
// (openssl s_server, a local HTTP server) on loopback, which the host
// config of each test lists as allowed (it is refused by default).
#include "egress/proxy.h"

#include <doctest/doctest.h>

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include "egress_rig.h"
#include "support/local_http_server.h"

using lw::EgressRule;
using lw::egress::ConnectionRecord;
using lw::egress::EgressProxy;
using lw::egress::ProxyConfig;
using lw::test::ScriptedResolver;
using lw::test::TempDir;
using lw::test::TlsServer;

namespace {

const boost::asio::ip::tcp::endpoint kLoopbackAnyPort{boost::asio::ip::make_address("127.0.0.1"), 0};

ProxyConfig configFor(std::vector<EgressRule> rules, const std::string& network = "127.0.0.1/32") {
  ProxyConfig c;
  c.rules = std::move(rules);
  c.allowedNetworks = {*lw::egress::parseNetwork(network)};
  return c;
}

std::unique_ptr<EgressProxy> startProxy(ProxyConfig c, std::shared_ptr<ScriptedResolver> resolver) {
  auto proxy = EgressProxy::start(std::move(c), kLoopbackAnyPort, std::move(resolver));
  REQUIRE(proxy.ok());
  return std::move(proxy).value();
}

lw::test::ToolRun curlThrough(const EgressProxy& proxy, const TempDir& dir, std::vector<std::string> extra) {
  std::vector<std::string> argv = {
      "curl", "-sS", "--max-time",     "20",      "-o",
      "-",    "-w",  "\n%{http_code}", "--proxy", "http://127.0.0.1:" + std::to_string(proxy.port())};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return lw::test::runTool(argv, dir);
}

// Records are written when a connection ends, just after the client saw it.
std::vector<ConnectionRecord> recordsOf(const EgressProxy& proxy, std::size_t atLeast) {
  for (int i = 0; i < 200 && proxy.records().size() < atLeast; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return proxy.records();
}

std::string url(const std::string& scheme, const std::string& host, unsigned short port, const std::string& path) {
  return scheme + "://" + host + ":" + std::to_string(port) + path;
}

}  // namespace

TEST_CASE("egress proxy: an allowed host is reached over HTTPS, and the connection is recorded") {
  TempDir dir;
  TlsServer server(dir, "allowed.test");
  auto resolver = std::make_shared<ScriptedResolver>(
      std::map<std::string, std::vector<std::vector<std::string>>>{{"allowed.test", {{"127.0.0.1"}}}});
  auto proxy = startProxy(configFor({{"allowed.test", server.port(), {}, "taskpack.yaml:7:9"}}), resolver);
  auto run = curlThrough(*proxy, dir, {"--cacert", server.cert(), url("https", "allowed.test", server.port(), "/")});
  CHECK_MESSAGE(run.status == 0, run.err);
  CHECK(run.out.ends_with("\n200"));
  auto records = recordsOf(*proxy, 1);
  REQUIRE(records.size() == 1);
  CHECK(records[0].allowed);
  CHECK(records[0].tunnel);
  CHECK(records[0].host == "allowed.test");
  CHECK(records[0].address == "127.0.0.1");
  CHECK(records[0].reason.starts_with("allowed by allowed.test:" + std::to_string(server.port())));
  CHECK(records[0].bytesSent > 200);  // the ClientHello at least
  CHECK(records[0].bytesReceived > 200);
}

TEST_CASE("egress proxy: another name, another port and an IP literal are refused with a 403 naming the policy") {
  TempDir dir;
  TlsServer server(dir, "allowed.test");
  auto resolver = std::make_shared<ScriptedResolver>(std::map<std::string, std::vector<std::vector<std::string>>>{
      {"allowed.test", {{"127.0.0.1"}}}, {"other.test", {{"127.0.0.1"}}}});
  auto proxy = startProxy(configFor({{"allowed.test", server.port(), {}, ""}}), resolver);
  const std::vector<std::string> refused = {url("https", "other.test", server.port(), "/"),
                                            url("https", "allowed.test", server.port() + 1, "/"),
                                            url("https", "127.0.0.1", server.port(), "/")};
  for (const auto& target : refused) {
    auto run = curlThrough(*proxy, dir, {"--cacert", server.cert(), "-v", target});
    CHECK_MESSAGE(run.status != 0, target);
    CHECK_MESSAGE(run.err.find("403") != std::string::npos, run.err);
  }
  auto records = recordsOf(*proxy, 3);
  REQUIRE(records.size() == 3);
  for (const auto& r : records) {
    CHECK(!r.allowed);
    CHECK(r.address.empty());
  }
  CHECK(records[0].reason == "other.test:" + std::to_string(server.port()) + " is not in the step's egress list");
  CHECK(records[2].reason.find("not a host name") != std::string::npos);
  CHECK(resolver->lookups("other.test") == 0);  // refused by name before any lookup
}

TEST_CASE("egress proxy: a tunnel whose TLS server name is not the CONNECT host is cut with an alert") {
  TempDir dir;
  TlsServer server(dir, "allowed.test");
  auto resolver = std::make_shared<ScriptedResolver>(
      std::map<std::string, std::vector<std::vector<std::string>>>{{"allowed.test", {{"127.0.0.1"}}}});
  auto proxy = startProxy(configFor({{"allowed.test", server.port(), {}, ""}}), resolver);
  auto run = lw::test::runTool({"openssl", "s_client", "-proxy", "127.0.0.1:" + std::to_string(proxy->port()),
                                "-connect", "allowed.test:" + std::to_string(server.port()), "-servername",
                                "secret.test", "-CAfile", server.cert(), "-verify_return_error"},
                               dir);
  CHECK(run.status != 0);
  auto records = recordsOf(*proxy, 1);
  REQUIRE(records.size() == 1);
  CHECK(!records[0].allowed);
  CHECK(records[0].reason == "the TLS server name 'secret.test' is not the host CONNECT named (allowed.test)");
  CHECK(records[0].bytesSent == 0);  // nothing of the hello reached the server
}

TEST_CASE("egress proxy: a tunnel that carries plain text instead of TLS is refused") {
  TempDir dir;
  lw::test::LocalHttpServer server("plain", [](const auto&) { return lw::test::LocalHttpServer::Response{}; });
  auto resolver = std::make_shared<ScriptedResolver>(
      std::map<std::string, std::vector<std::vector<std::string>>>{{"plain.test", {{"127.0.0.1"}}}});
  auto proxy = startProxy(configFor({{"plain.test", server.port(), {}, ""}}), resolver);
  auto run = curlThrough(*proxy, dir, {"--proxytunnel", url("http", "plain.test", server.port(), "/")});
  CHECK(run.status != 0);
  auto records = recordsOf(*proxy, 1);
  REQUIRE(records.size() == 1);
  CHECK(!records[0].allowed);
  CHECK(records[0].reason.find("carries TLS with a server name only") != std::string::npos);
}

TEST_CASE("egress proxy: a name is resolved once per connection, and an answer with a forbidden address is refused") {
  TempDir dir;
  TlsServer server(dir, "rebind.test", "127.0.0.2");
  // The first lookup gives the allowed address, the second the host's own
  // loopback, the third a mixed answer with cloud metadata in it.
  auto resolver = std::make_shared<ScriptedResolver>(std::map<std::string, std::vector<std::vector<std::string>>>{
      {"rebind.test", {{"127.0.0.2"}, {"127.0.0.1"}, {"127.0.0.2", "169.254.169.254"}}}});
  auto proxy = startProxy(configFor({{"rebind.test", server.port(), {}, ""}}, "127.0.0.2/32"), resolver);
  const std::string target = url("https", "rebind.test", server.port(), "/");
  auto first = curlThrough(*proxy, dir, {"--cacert", server.cert(), target});
  CHECK_MESSAGE(first.status == 0, first.err);
  auto second = curlThrough(*proxy, dir, {"--cacert", server.cert(), "-v", target});
  CHECK(second.status != 0);
  CHECK(second.err.find("403") != std::string::npos);
  auto third = curlThrough(*proxy, dir, {"--cacert", server.cert(), "-v", target});
  CHECK(third.status != 0);
  auto records = recordsOf(*proxy, 3);
  REQUIRE(records.size() == 3);
  CHECK(records[0].address == "127.0.0.2");
  CHECK(records[1].reason ==
        "rebind.test resolves to 127.0.0.1 is loopback (127.0.0.0/8), which the host config "
        "does not allow");
  CHECK(records[2].reason.find("169.254.169.254") != std::string::npos);
  CHECK(resolver->lookups("rebind.test") == 3);
}

TEST_CASE("egress proxy: a plain-HTTP entry allows the requests its rules list, as the server receives them") {
  TempDir dir;
  std::vector<lw::test::LocalHttpServer::Request> seen;
  std::mutex seenMutex;
  lw::test::LocalHttpServer server("plain", [&](const lw::test::LocalHttpServer::Request& r) {
    std::lock_guard lock(seenMutex);
    seen.push_back(r);
    return lw::test::LocalHttpServer::Response{200, {}, "hello from " + r.target};
  });
  auto resolver = std::make_shared<ScriptedResolver>(
      std::map<std::string, std::vector<std::vector<std::string>>>{{"plain.test", {{"127.0.0.1"}}}});
  auto proxy = startProxy(configFor({{"plain.test", server.port(), {{"GET", "/allowed/"}}, ""}}), resolver);
  auto ok = curlThrough(
      *proxy, dir,
      {"-H", "Proxy-Authorization: Basic c2VjcmV0", url("http", "plain.test", server.port(), "/allowed/a?b=1")});
  CHECK(ok.out == "hello from /allowed/a?b=1\n200");
  auto traversal =
      curlThrough(*proxy, dir, {"--path-as-is", url("http", "plain.test", server.port(), "/allowed/../secret")});
  CHECK(traversal.out.ends_with("\n403"));
  CHECK(traversal.out.find("does not allow GET /secret") != std::string::npos);
  auto post = curlThrough(*proxy, dir, {"-d", "x=1", url("http", "plain.test", server.port(), "/allowed/a")});
  CHECK(post.out.ends_with("\n403"));
  auto otherHost =
      curlThrough(*proxy, dir, {"-H", "Host: secret.test", url("http", "plain.test", server.port(), "/allowed/a")});
  CHECK(otherHost.out.ends_with("\n400"));
  std::lock_guard lock(seenMutex);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].target == "/allowed/a?b=1");
  CHECK(seen[0].headers.count("proxy-authorization") == 0);
  CHECK(seen[0].headers["connection"] == "close");
}

TEST_CASE("egress proxy: the step's byte and connection limits cut what goes over them") {
  TempDir dir;
  lw::test::LocalHttpServer server("plain", [](const auto&) {
    return lw::test::LocalHttpServer::Response{200, {}, std::string(100'000, 'x')};
  });
  auto resolver = std::make_shared<ScriptedResolver>(
      std::map<std::string, std::vector<std::vector<std::string>>>{{"plain.test", {{"127.0.0.1"}}}});
  auto config = configFor({{"plain.test", server.port(), {{"GET", "/"}}, ""}});
  config.maxBytes = 10'000;
  config.maxConnections = 2;
  auto proxy = startProxy(config, resolver);
  auto big = curlThrough(*proxy, dir, {url("http", "plain.test", server.port(), "/big")});
  CHECK(big.status != 0);
  CHECK(big.out.size() < 20'000);
  curlThrough(*proxy, dir, {url("http", "plain.test", server.port(), "/second")});
  auto third = curlThrough(*proxy, dir, {url("http", "plain.test", server.port(), "/third")});
  CHECK(third.out.ends_with("\n403"));
  auto records = recordsOf(*proxy, 3);
  REQUIRE(records.size() == 3);
  CHECK(records[0].reason.find("byte limit") != std::string::npos);
  CHECK(records[2].reason == "the step's egress connection limit (2) is spent");
}

TEST_CASE("egress proxy: it listens on a unix socket, the way a sandbox's relay reaches it") {
  TempDir dir;
  auto resolver = std::make_shared<ScriptedResolver>(std::map<std::string, std::vector<std::vector<std::string>>>{});
  const auto socketPath = dir.root / "egress.sock";
  auto proxy = EgressProxy::start(configFor({}), socketPath, resolver);
  REQUIRE(proxy.ok());
  CHECK((*proxy)->port() == 0);
  boost::asio::io_context ctx;
  boost::asio::local::stream_protocol::socket s(ctx);
  s.connect(socketPath.string());
  boost::asio::write(s,
                     boost::asio::buffer(std::string("CONNECT evil.test:443 HTTP/1.1\r\nHost: evil.test:443\r\n\r\n")));
  boost::asio::streambuf answer;
  boost::asio::read_until(s, answer, "\r\n\r\n");
  const std::string head(boost::asio::buffers_begin(answer.data()), boost::asio::buffers_end(answer.data()));
  CHECK(head.starts_with("HTTP/1.1 403"));
  CHECK(head.find("X-Loopwright-Egress: denied") != std::string::npos);
}
