// Which addresses the egress proxy may connect to once it has resolved an
// allowed name itself: public unicast only, unless the host config lists a
// network (a registry mirror on the runner's LAN). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

namespace lw::egress {

// A network a host config allows although it is not public ("10.1.2.0/24").
struct AllowedNetwork {
  boost::asio::ip::address base;
  int prefixLength = 0;
};

// "10.1.2.0/24", "fd12::/16", or one address; nullopt when malformed.
std::optional<AllowedNetwork> parseNetwork(std::string_view text);

// Why `a` is not a public unicast address ("loopback", "link-local (cloud
// metadata lives here)", "private", …), or nullopt when it is one. An
// IPv6 address that embeds an IPv4 one (mapped, compatible, NAT64, 6to4)
// is judged by the IPv4 address it reaches.
std::optional<std::string> nonPublicReason(const boost::asio::ip::address& a);

bool inNetwork(const boost::asio::ip::address& a, const AllowedNetwork& n);

// Why the proxy must not connect to `a`, or nullopt when it may.
std::optional<std::string> addressRefusal(const boost::asio::ip::address& a,
                                          const std::vector<AllowedNetwork>& allowed);

}  // namespace lw::egress
