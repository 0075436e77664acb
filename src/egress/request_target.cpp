#include "egress/request_target.h"

#include <charconv>

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include "core/ascii.h"

namespace lw::egress {

namespace {

using Read = std::variant<ProxyRequest, std::string>;

std::optional<int> portNumber(std::string_view digits) {
  int port = 0;
  const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (err != std::errc{} || end != digits.data() + digits.size() || port < 1 || port > 65535) return std::nullopt;
  return port;
}

// "host:port" or "[v6]:port", the authority form CONNECT uses.
Read tunnelRequest(std::string_view target) {
  const auto colon = target.rfind(':');
  if (colon == std::string_view::npos || colon == 0)
    return "CONNECT needs host:port, got '" + std::string(target) + "'";
  auto port = portNumber(target.substr(colon + 1));
  if (!port) return "CONNECT names no valid port in '" + std::string(target) + "'";
  std::string_view host = target.substr(0, colon);
  if (host.starts_with('[') && host.ends_with(']')) host = host.substr(1, host.size() - 2);
  return ProxyRequest{true, {std::string(host), *port, std::nullopt, std::nullopt}, ""};
}

// Servers differ on an encoded separator: some decode "/allowed%2F..%2Fx"
// into "/x", others keep "a%2Fb" as one segment, so no prefix check can
// mean the same as the server. Such paths are refused before normalising.
bool hasEncodedSeparator(std::string_view path) {
  const std::string lower = asciiLowered(path);
  return lower.find("%2f") != std::string::npos || lower.find("%5c") != std::string::npos ||
         lower.find('\\') != std::string::npos;
}

bool sameAuthority(std::string_view hostHeader, const boost::urls::url& u) {
  const std::string expected = asciiLowered(u.encoded_host_and_port());
  return asciiLowered(hostHeader) == expected;
}

Read plainRequest(std::string_view method, std::string_view target, std::optional<std::string_view> hostHeader) {
  auto parsed = boost::urls::parse_absolute_uri(target);
  if (!parsed) return "a plain-HTTP request through a proxy names its URL in full (http://host/path)";
  boost::urls::url u(*parsed);
  if (asciiLowered(u.scheme()) != "http") return "only http:// URLs go as plain requests; use CONNECT for TLS";
  if (u.has_userinfo()) return "a URL with user information is refused";
  if (u.host().empty()) return "the URL names no host";
  if (!hostHeader || !sameAuthority(*hostHeader, u)) return "the Host header and the URL name different hosts";
  if (hasEncodedSeparator(u.encoded_path())) return "a path with an encoded '/' or '\\' is refused";
  u.normalize_path();
  const std::string path = u.encoded_path().empty() ? "/" : std::string(u.encoded_path());
  int port = 80;
  if (u.has_port()) {
    auto p = portNumber(u.port());
    if (!p) return "the URL names no valid port";
    port = *p;
  }
  std::string origin = path + (u.has_query() ? "?" + std::string(u.encoded_query()) : "");
  return ProxyRequest{false, {std::string(u.host()), port, std::string(method), path}, std::move(origin)};
}

}  // namespace

Read readProxyRequest(std::string_view method, std::string_view target, std::optional<std::string_view> hostHeader) {
  if (method == "CONNECT") return tunnelRequest(target);
  return plainRequest(method, target, hostHeader);
}

}  // namespace lw::egress
