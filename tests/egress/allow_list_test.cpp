#include "egress/allow_list.h"

#include <doctest/doctest.h>

using lw::EgressRule;
using lw::egress::decideName;
using lw::egress::RequestedDestination;

namespace {

RequestedDestination tunnelTo(std::string host, int port = 443) { return {std::move(host), port, {}, {}}; }
RequestedDestination get(std::string host, int port, std::string path) { return {std::move(host), port, "GET", path}; }

}  // namespace

TEST_CASE("egress allow-list: host names are compared in canonical form") {
  CHECK(lw::egress::canonicalHostName("Registry.NPMjs.org.") == "registry.npmjs.org");
  CHECK(lw::egress::canonicalHostName("a_b.example.org") == "a_b.example.org");
  for (const char* bad :
       {"", ".", "a..b", "127.0.0.1", "127.1", "0x7f.0.0.1", "::1", "[::1]", "a b.org", "a/b.org", "xn--\xc3\xa9.org"})
    CHECK_MESSAGE(!lw::egress::canonicalHostName(bad), bad);
  CHECK(!lw::egress::canonicalHostName(std::string(64, 'a') + ".org"));
}

TEST_CASE("egress allow-list: a '*.' entry matches the names below it and not the name itself") {
  CHECK(lw::egress::hostMatches("*.example.org", "a.example.org"));
  CHECK(lw::egress::hostMatches("*.example.org", "a.b.example.org"));
  CHECK(!lw::egress::hostMatches("*.example.org", "example.org"));
  CHECK(!lw::egress::hostMatches("*.example.org", "badexample.org"));
  CHECK(!lw::egress::hostMatches("example.org", "a.example.org"));
}

TEST_CASE("egress allow-list: a tunnel is allowed by name and port, and refused with the reason otherwise") {
  const std::vector<EgressRule> rules = {{"registry.npmjs.org", 443, {}, "taskpack.yaml:9:11"}};
  auto allowed = decideName(rules, tunnelTo("REGISTRY.npmjs.org"));
  CHECK(allowed.allowed);
  CHECK(allowed.host == "registry.npmjs.org");
  CHECK(allowed.reason == "allowed by registry.npmjs.org:443 from taskpack.yaml:9:11");

  auto otherPort = decideName(rules, tunnelTo("registry.npmjs.org", 22));
  CHECK(!otherPort.allowed);
  CHECK(otherPort.reason == "registry.npmjs.org:22 is not in the step's egress list");
  CHECK(!decideName(rules, tunnelTo("evil.org")).allowed);
  auto literal = decideName(rules, tunnelTo("104.16.1.34"));
  CHECK(!literal.allowed);
  CHECK(literal.reason.find("not a host name") != std::string::npos);
}

TEST_CASE("egress allow-list: an entry with HTTP rules allows only the plain requests they list") {
  const std::vector<EgressRule> rules = {
      {"deb.example.org", 80, {{"GET", "/debian/"}, {"HEAD", "/debian/"}}, "taskpack.yaml:3:5"}};
  CHECK(decideName(rules, get("deb.example.org", 80, "/debian/pool/a.deb")).allowed);
  CHECK(!decideName(rules, get("deb.example.org", 80, "/other")).allowed);
  auto post = decideName(rules, {"deb.example.org", 80, "POST", "/debian/x"});
  CHECK(!post.allowed);
  CHECK(post.reason == "the entry deb.example.org:80 from taskpack.yaml:3:5 does not allow POST /debian/x");
  auto tunnel = decideName(rules, tunnelTo("deb.example.org", 80));
  CHECK(!tunnel.allowed);
  CHECK(tunnel.reason.find("not a tunnel") != std::string::npos);
}

TEST_CASE("egress allow-list: a later entry for the same name can allow what an earlier one's rules refuse") {
  const std::vector<EgressRule> rules = {{"api.example.org", 80, {{"GET", "/v1/"}}, "a"},
                                         {"*.example.org", 80, {}, "b"}};
  CHECK(decideName(rules, {"api.example.org", 80, "POST", "/v2"}).allowed);
}
