// One entry of a step's egress allow-list (sandbox.egress, networkMode
// allow-list): where a step may connect through the orchestrator's egress
// proxy. docs/egress.md is the reference for people.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/address.hpp>

namespace lw {

// A plain-HTTP request rule: the method, and a path prefix the request's
// path must start with ("/" for any). TLS hides both, so these apply only
// to plain HTTP, never to a CONNECT tunnel.
struct EgressHttpRule {
  std::string method;  // upper case: "GET"; empty for any
  std::string pathPrefix = "/";
};

struct EgressRule {
  // A host name, lower case, without a trailing dot: "registry.npmjs.org",
  // or "*.example.org" for every name below example.org (not example.org
  // itself, as in TLS certificates).
  std::string host;
  int port = 443;
  // Empty: any request to host:port. Otherwise plain HTTP only, and only
  // requests one rule matches.
  std::vector<EgressHttpRule> http;
  // Where the entry was written ("taskpack.yaml:12:9"), for explain and
  // for the reason of a decision.
  std::string origin;
};

// A network the host config lets the proxy connect to although it is not
// public ("10.1.2.0/24": a registry mirror on the runner's network).
struct AllowedNetwork {
  boost::asio::ip::address base;
  int prefixLength = 0;
};

// "10.1.2.0/24", "fd12::/16", or one address; nullopt when malformed.
std::optional<AllowedNetwork> parseNetwork(std::string_view text);

// The host in a canonical form: lower case, one trailing dot removed;
// nullopt when it is not a DNS name (empty, a label over 63 bytes, a
// character outside letters, digits, '-' and '_', an IP literal).
std::optional<std::string> canonicalHostName(std::string_view host);

// The same for an entry's host, which may start with "*.".
std::optional<std::string> canonicalHostPattern(std::string_view pattern);

// Whether `host` (canonical) is the pattern's name, or a name below it for
// a "*." pattern.
bool hostMatches(std::string_view pattern, std::string_view host);

// Whether a floor entry allows everything `entry` allows: the same port,
// every name of the entry's pattern, and (when the floor lists HTTP rules)
// only requests the floor's rules allow.
bool egressRuleCovers(const EgressRule& floor, const EgressRule& entry);

}  // namespace lw
