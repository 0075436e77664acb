// Which addresses the egress proxy may connect to once it has resolved an
// allowed name itself: public unicast only, unless the host config lists a
// network (a registry mirror on the runner's LAN). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

#include "policy/model/egress_rule.h"

namespace lw::egress {

using lw::AllowedNetwork;
using lw::parseNetwork;

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
