#include "core/http_policy.h"

#include <arpa/inet.h>
#include <netinet/in.h>

namespace lw::http {

bool isLoopbackHost(std::string_view host) {
  if (host == "localhost" || (host.size() > 10 && host.substr(host.size() - 10) == ".localhost"))
    return true;  // RFC 6761 6.3: libcurl resolves these to loopback itself
  std::string literal(host);
  if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']')
    literal = literal.substr(1, literal.size() - 2);
  in_addr v4{};
  if (::inet_pton(AF_INET, literal.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, literal.c_str(), &v6) == 1)
    return IN6_IS_ADDR_LOOPBACK(&v6) || (IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127);
  return false;
}

std::string refusal(const Origin& target, const Policy& policy) {
  if (target.scheme != "https" && target.scheme != "http")
    return "only http and https are allowed, not '" + target.scheme + "'";
  if (target.scheme == "http" && policy.unixSocket.empty() && !isLoopbackHost(target.host))
    return "plain http is allowed only to this machine, not to " + target.host + " (use https)";
  return "";
}

bool mayUseProxy(const Origin& target, const Policy& policy) {
  return policy.proxy == Proxy::kFromEnvironment && policy.unixSocket.empty() && !isLoopbackHost(target.host);
}

Request redirected(const Request& current, int status, std::string location) {
  Request next = current;
  next.url = std::move(location);
  const bool asGet = status == 303 || ((status == 301 || status == 302) && current.method == "POST");
  if (asGet && current.method != "HEAD") {
    next.method = "GET";
    next.body.clear();
  }
  return next;
}

RedirectDecision decideRedirect(int status, const Origin& from, const Origin& to, int followed, const Policy& policy) {
  using Kind = RedirectDecision::Kind;
  const bool isRedirect = status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  if (!isRedirect || policy.maxRedirects <= 0 || to.host.empty()) return {Kind::kAnswer, {}};
  const std::string where = to.scheme + "://" + to.host + ":" + to.port;
  if (!(to == from))
    return {Kind::kRefuse, "a redirect from " + from.scheme + "://" + from.host + ":" + from.port +
                               " to another origin (" + where + ") is not followed"};
  if (followed >= policy.maxRedirects)
    return {Kind::kRefuse, "more than " + std::to_string(policy.maxRedirects) + " redirects (last to " + where + ")"};
  return {Kind::kFollow, {}};
}

}  // namespace lw::http
