#include "egress/address_policy.h"

#include <array>
#include <cstdint>

namespace lw::egress {

namespace ip = boost::asio::ip;

namespace {

struct V4Range {
  std::uint32_t base;
  int prefix;
  std::string_view why;
};

// IANA's IPv4 special-purpose registry, the entries that are not globally
// reachable, plus multicast and the reserved block.
constexpr std::array kV4Ranges = {
    V4Range{0x00000000, 8, "\"this network\" (0.0.0.0/8)"},
    V4Range{0x0A000000, 8, "private (10.0.0.0/8)"},
    V4Range{0x64400000, 10, "shared address space (100.64.0.0/10)"},
    V4Range{0x7F000000, 8, "loopback (127.0.0.0/8)"},
    V4Range{0xA9FE0000, 16, "link-local (169.254.0.0/16, where cloud metadata lives)"},
    V4Range{0xAC100000, 12, "private (172.16.0.0/12)"},
    V4Range{0xC0000000, 24, "IETF protocol assignments (192.0.0.0/24)"},
    V4Range{0xC0000200, 24, "documentation (192.0.2.0/24)"},
    V4Range{0xC0A80000, 16, "private (192.168.0.0/16)"},
    V4Range{0xC6120000, 15, "benchmarking (198.18.0.0/15)"},
    V4Range{0xC6336400, 24, "documentation (198.51.100.0/24)"},
    V4Range{0xCB007100, 24, "documentation (203.0.113.0/24)"},
    V4Range{0xE0000000, 4, "multicast (224.0.0.0/4)"},
    V4Range{0xF0000000, 4, "reserved (240.0.0.0/4, with the broadcast address)"},
};

bool prefixEqual(const unsigned char* a, const unsigned char* b, int bits) {
  for (int i = 0; bits > 0; ++i, bits -= 8) {
    const unsigned mask = bits >= 8 ? 0xFFu : (0xFFu << (8 - bits)) & 0xFFu;
    if ((a[i] & mask) != (b[i] & mask)) return false;
  }
  return true;
}

std::optional<std::string> v4Reason(const ip::address_v4& a) {
  const std::uint32_t value = a.to_uint();
  for (const V4Range& r : kV4Ranges) {
    const std::uint32_t mask = r.prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - r.prefix);
    if ((value & mask) == r.base) return std::string(r.why);
  }
  return std::nullopt;
}

// The IPv4 address an IPv6 one stands for: mapped (::ffff:a.b.c.d),
// compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::).
std::optional<ip::address_v4> embeddedV4(const ip::address_v6& a) {
  const auto b = a.to_bytes();
  auto v4At = [&](int at) { return ip::address_v4({b[at], b[at + 1], b[at + 2], b[at + 3]}); };
  if (a.is_v4_mapped()) return v4At(12);
  static constexpr unsigned char kNat64[12] = {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
  static constexpr unsigned char kZero[12] = {};
  if (prefixEqual(b.data(), kNat64, 96)) return v4At(12);
  if (prefixEqual(b.data(), kZero, 96) && !a.is_loopback() && !a.is_unspecified()) return v4At(12);
  if (b[0] == 0x20 && b[1] == 0x02) return v4At(2);
  return std::nullopt;
}

std::optional<std::string> v6Reason(const ip::address_v6& a) {
  if (auto v4 = embeddedV4(a)) {
    if (auto why = v4Reason(*v4)) return "an IPv6 form of " + v4->to_string() + ", " + *why;
    return std::nullopt;
  }
  const auto b = a.to_bytes();
  if (a.is_unspecified()) return "unspecified (::)";
  if (a.is_loopback()) return "loopback (::1)";
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return "link-local (fe80::/10)";
  if ((b[0] & 0xfe) == 0xfc) return "unique-local (fc00::/7, where fd00:ec2::254 cloud metadata lives)";
  if (b[0] == 0xff) return "multicast (ff00::/8)";
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return "documentation (2001:db8::/32)";
  if (b[0] == 0x01 && b[1] == 0x00 && b[2] == 0 && b[3] == 0 && b[4] == 0 && b[5] == 0 && b[6] == 0 && b[7] == 0)
    return "discard-only (100::/64)";
  if ((b[0] & 0xe0) != 0x20) return "outside global unicast (2000::/3)";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> nonPublicReason(const ip::address& a) {
  return a.is_v4() ? v4Reason(a.to_v4()) : v6Reason(a.to_v6());
}

bool inNetwork(const ip::address& a, const AllowedNetwork& n) {
  if (a.is_v4() != n.base.is_v4()) return false;
  if (a.is_v4()) return prefixEqual(a.to_v4().to_bytes().data(), n.base.to_v4().to_bytes().data(), n.prefixLength);
  return prefixEqual(a.to_v6().to_bytes().data(), n.base.to_v6().to_bytes().data(), n.prefixLength);
}

std::optional<std::string> addressRefusal(const ip::address& a, const std::vector<AllowedNetwork>& allowed) {
  auto why = nonPublicReason(a);
  if (!why) return std::nullopt;
  for (const AllowedNetwork& n : allowed)
    if (inNetwork(a, n)) return std::nullopt;
  return a.to_string() + " is " + *why + ", which the host config does not allow";
}

}  // namespace lw::egress
