// The hardening every HTTP exchange of the project goes through, as data
// (Policy) and pure decisions on it; core/http_curl.h applies them. Each
// client states its policy where it creates its transport (github/rest/github_http.h,
// sandbox/docker/http_transport.h, bridge/lane_http.h) and says why.
//  - protocols: https anywhere, plain http only to this machine (a token
//    or an API key never crosses a network in clear text);
//  - redirects: none by default; at most `maxRedirects`, each to the same
//    scheme, host and port (credentials in headers stay with their origin);
//  - body bounds for what is sent and what is kept in memory;
//  - a connect timeout beside each request's total timeout;
//  - proxies: none unless the policy takes the standard variables
//    (https_proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY, as libcurl reads them),
//    and never for loopback or a unix socket.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/http.h"

namespace lw::http {

enum class Proxy {
  kNever,            // connect directly, whatever the environment says
  kFromEnvironment,  // honour the proxy variables, for hosts other than this machine
};

struct Policy {
  int maxRedirects = 0;                             // same-origin redirects followed; 0: a 3xx is the answer
  std::size_t maxRequestBytes = 8u << 20;           // a longer body is not sent (kTooLarge)
  std::size_t maxResponseBytes = 8u << 20;          // kept in Response::body; a sink bounds its own memory
  std::chrono::milliseconds connectTimeout{10000};  // capped by the request's own timeout
  Proxy proxy = Proxy::kNever;
  std::string unixSocket{};  // when set, every exchange goes to this socket (Docker's engine)
  // The certificate authorities https peers are verified against instead of
  // the system's: a PEM file (re-read by libcurl on every connection, so a
  // rotated bundle is picked up) or PEM text (a kubeconfig's
  // certificate-authority-data). Verification itself is never turned off.
  std::string caFile{};
  std::string caPem{};
};

// The parts of a URL the policy looks at, lower-case; the port is always
// present ("443" for https without one).
struct Origin {
  std::string scheme;
  std::string host;  // IPv6 literals in brackets: "[::1]"
  std::string port;
  bool operator==(const Origin&) const = default;
};

// "localhost", "*.localhost", 127.0.0.0/8 and [::1].
bool isLoopbackHost(std::string_view host);

// Why the policy forbids an exchange with `target`, or "" when it allows it.
// Over a unix socket only the scheme is checked: the socket is the destination.
std::string refusal(const Origin& target, const Policy& policy);

// Whether a proxy from the environment may carry an exchange with `target`.
bool mayUseProxy(const Origin& target, const Policy& policy);

// The request that continues `current` after a redirect status: 303, and
// 301/302 after a POST, continue as a GET without a body (RFC 9110 15.4);
// 307/308 repeat the method and body.
Request redirected(const Request& current, int status, std::string location);

struct RedirectDecision {
  enum class Kind { kAnswer, kFollow, kRefuse } kind = Kind::kAnswer;
  std::string refusal;  // for kRefuse: what was refused, without the query
};

// What to do with an answer of `status` to a request to `from`: the answer
// itself (not a redirect, no Location, or the policy follows none), follow
// the redirect to `to` (the `followed`+1-th), or refuse it.
RedirectDecision decideRedirect(int status, const Origin& from, const Origin& to, int followed, const Policy& policy);

}  // namespace lw::http
