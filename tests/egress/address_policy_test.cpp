#include "egress/address_policy.h"

#include <doctest/doctest.h>

namespace ip = boost::asio::ip;
using lw::egress::addressRefusal;
using lw::egress::nonPublicReason;
using lw::egress::parseNetwork;

TEST_CASE("egress addresses: loopback, link-local, private, metadata and their IPv6 disguises are not public") {
  for (const char* a : {"127.0.0.1",
                        "127.255.0.9",
                        "0.0.0.0",
                        "10.1.2.3",
                        "172.16.0.1",
                        "172.31.255.255",
                        "192.168.1.1",
                        "169.254.169.254",
                        "100.64.0.1",
                        "224.0.0.1",
                        "255.255.255.255",
                        "198.18.0.1",
                        "::1",
                        "::",
                        "fe80::1",
                        "fd00:ec2::254",
                        "fc00::1",
                        "ff02::1",
                        "::ffff:127.0.0.1",
                        "::ffff:169.254.169.254",
                        "::127.0.0.1",
                        "64:ff9b::a9fe:a9fe",
                        "2002:7f00:1::1",
                        "2001:db8::1"})
    CHECK_MESSAGE(nonPublicReason(ip::make_address(a)).has_value(), a);
  for (const char* a : {"93.184.216.34", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8",
                        "64:ff9b::808:808", "2002:808:808::1"})
    CHECK_MESSAGE(!nonPublicReason(ip::make_address(a)).has_value(), a);
  CHECK(*nonPublicReason(ip::make_address("::ffff:169.254.169.254")) ==
        "an IPv6 form of 169.254.169.254, link-local (169.254.0.0/16, where cloud metadata lives)");
}

TEST_CASE("egress addresses: a network the host config lists is allowed, and nothing next to it") {
  auto net = parseNetwork("10.1.2.0/24");
  REQUIRE(net);
  CHECK(!addressRefusal(ip::make_address("10.1.2.200"), {*net}));
  auto refusal = addressRefusal(ip::make_address("10.1.3.1"), {*net});
  REQUIRE(refusal);
  CHECK(*refusal == "10.1.3.1 is private (10.0.0.0/8), which the host config does not allow");
  CHECK(addressRefusal(ip::make_address("fd00::1"), {*net}));
  auto v6 = parseNetwork("fd12:3456::/32");
  REQUIRE(v6);
  CHECK(!addressRefusal(ip::make_address("fd12:3456:1::5"), {*v6}));
  CHECK(addressRefusal(ip::make_address("fd12:3457::5"), {*v6}));
  auto one = parseNetwork("127.0.0.2");
  REQUIRE(one);
  CHECK(one->prefixLength == 32);
  CHECK(addressRefusal(ip::make_address("127.0.0.1"), {*one}));
}

TEST_CASE("egress addresses: a malformed network is refused") {
  for (const char* bad : {"", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/", "10.0.0.0/8x", "example.org/8", "::/129"})
    CHECK_MESSAGE(!parseNetwork(bad), bad);
}
