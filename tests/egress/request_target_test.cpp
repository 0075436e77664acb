#include "egress/request_target.h"

#include <doctest/doctest.h>

using lw::egress::ProxyRequest;
using lw::egress::readProxyRequest;

namespace {

ProxyRequest accepted(std::string_view method, std::string_view target, std::optional<std::string_view> host = {}) {
  auto read = readProxyRequest(method, target, host);
  if (auto* why = std::get_if<std::string>(&read)) FAIL(*why);
  return std::get<ProxyRequest>(read);
}

std::string refused(std::string_view method, std::string_view target, std::optional<std::string_view> host = {}) {
  auto read = readProxyRequest(method, target, host);
  REQUIRE(std::holds_alternative<std::string>(read));
  return std::get<std::string>(read);
}

}  // namespace

TEST_CASE("egress request: CONNECT names a host and a port") {
  auto r = accepted("CONNECT", "registry.npmjs.org:443");
  CHECK(r.tunnel);
  CHECK(r.destination.host == "registry.npmjs.org");
  CHECK(r.destination.port == 443);
  CHECK(!r.destination.method);
  CHECK(accepted("CONNECT", "[::1]:8443").destination.host == "::1");
  CHECK(refused("CONNECT", "registry.npmjs.org").find("host:port") != std::string::npos);
  CHECK(refused("CONNECT", "a.org:0").find("port") != std::string::npos);
  CHECK(refused("CONNECT", "a.org:65536").find("port") != std::string::npos);
  CHECK(refused("CONNECT", "a.org:44x").find("port") != std::string::npos);
}

TEST_CASE("egress request: a plain request's path is sent as the rule saw it, dot segments resolved") {
  auto r = accepted("GET", "http://deb.example.org/debian/./pool/../dists/x?y=1", "deb.example.org");
  CHECK(!r.tunnel);
  CHECK(r.destination.port == 80);
  CHECK(r.destination.method == "GET");
  CHECK(r.destination.path == "/debian/dists/x");
  CHECK(r.originTarget == "/debian/dists/x?y=1");
  CHECK(accepted("GET", "http://deb.example.org/debian/%2e%2e/secret", "deb.example.org").destination.path ==
        "/secret");
  CHECK(accepted("GET", "http://deb.example.org:8080", "deb.example.org:8080").originTarget == "/");
}

TEST_CASE("egress request: plain requests that could mean two things are refused") {
  CHECK(refused("GET", "/debian/x", "deb.example.org").find("in full") != std::string::npos);
  CHECK(refused("GET", "https://deb.example.org/x", "deb.example.org").find("CONNECT") != std::string::npos);
  CHECK(refused("GET", "http://user:pw@deb.example.org/x", "deb.example.org").find("user") != std::string::npos);
  CHECK(refused("GET", "http://deb.example.org/x", "other.example.org").find("Host") != std::string::npos);
  CHECK(refused("GET", "http://deb.example.org/x", std::nullopt).find("Host") != std::string::npos);
  CHECK(refused("GET", "http://deb.example.org:8080/x", "deb.example.org").find("Host") != std::string::npos);
  CHECK(refused("GET", "http://deb.example.org/debian%2F..%2Fsecret", "deb.example.org").find("encoded") !=
        std::string::npos);
  CHECK(refused("GET", "http://deb.example.org:99999/", "deb.example.org:99999").find("port") != std::string::npos);
}
