// One entry of a step's egress allow-list (sandbox.egress, networkMode
// allow-list): where a step may connect through the orchestrator's egress
// proxy. docs/egress.md is the reference for people.
#pragma once

#include <string>
#include <vector>

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

}  // namespace lw
