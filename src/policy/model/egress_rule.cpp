#include "policy/model/egress_rule.h"

#include <algorithm>
#include <charconv>

#include "core/ascii.h"

namespace lw {

namespace {

bool isLabelChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'; }

// A name whose last label is all digits is an IPv4 literal to inet_aton and
// so to many resolvers ("127.1", "0x7f.0.0.1"); no top-level domain is.
bool lastLabelNumeric(std::string_view name) {
  const auto dot = name.rfind('.');
  const std::string_view last = dot == std::string_view::npos ? name : name.substr(dot + 1);
  return std::all_of(last.begin(), last.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool validLabels(std::string_view name) {
  std::size_t start = 0;
  while (start <= name.size()) {
    const auto end = std::min(name.find('.', start), name.size());
    const std::size_t length = end - start;
    if (length == 0 || length > 63) return false;
    if (!std::all_of(name.begin() + start, name.begin() + end, isLabelChar)) return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

std::optional<std::string> canonicalHostName(std::string_view host) {
  std::string name = asciiLowered(host);
  if (name.ends_with('.')) name.pop_back();
  if (name.empty() || name.size() > 253 || !validLabels(name) || lastLabelNumeric(name)) return std::nullopt;
  return name;
}

bool hostMatches(std::string_view pattern, std::string_view host) {
  if (!pattern.starts_with("*.")) return pattern == host;
  const std::string_view suffix = pattern.substr(1);  // ".example.org"
  return host.size() > suffix.size() && host.ends_with(suffix);
}

std::optional<std::string> canonicalHostPattern(std::string_view pattern) {
  if (!pattern.starts_with("*.")) return canonicalHostName(pattern);
  auto below = canonicalHostName(pattern.substr(2));
  if (!below) return std::nullopt;
  return "*." + *below;
}

namespace {

// Every name `inner` matches is one `outer` matches.
bool patternCovers(std::string_view outer, std::string_view inner) {
  if (!outer.starts_with("*.")) return outer == inner;
  if (!inner.starts_with("*.")) return hostMatches(outer, inner);
  return inner == outer || hostMatches(outer, inner.substr(2));
}

bool httpRuleCovers(const EgressHttpRule& floor, const EgressHttpRule& entry) {
  return (floor.method.empty() || floor.method == entry.method) && entry.pathPrefix.starts_with(floor.pathPrefix);
}

}  // namespace

bool egressRuleCovers(const EgressRule& floor, const EgressRule& entry) {
  if (floor.port != entry.port || !patternCovers(floor.host, entry.host)) return false;
  if (floor.http.empty()) return true;
  if (entry.http.empty()) return false;  // the entry would allow tunnels and any request
  return std::all_of(entry.http.begin(), entry.http.end(), [&](const EgressHttpRule& e) {
    return std::any_of(floor.http.begin(), floor.http.end(),
                       [&](const EgressHttpRule& f) { return httpRuleCovers(f, e); });
  });
}

std::optional<AllowedNetwork> parseNetwork(std::string_view text) {
  const auto slash = text.find('/');
  boost::system::error_code ec;
  const auto base = boost::asio::ip::make_address(std::string(text.substr(0, slash)), ec);
  if (ec) return std::nullopt;
  const int maximum = base.is_v4() ? 32 : 128;
  int prefix = maximum;
  if (slash != std::string_view::npos) {
    const std::string_view digits = text.substr(slash + 1);
    const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (err != std::errc{} || end != digits.data() + digits.size() || prefix < 0 || prefix > maximum)
      return std::nullopt;
  }
  return AllowedNetwork{base, prefix};
}

}  // namespace lw
