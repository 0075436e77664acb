// Whether a step's egress allow-list lets a request through, by name and
// port (and, for plain HTTP, method and path). Pure: addresses are decided
// apart (address_policy.h), after the proxy resolves the name itself.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/model/egress_rule.h"

namespace lw::egress {

// What a client asked for. A CONNECT tunnel has no method or path.
struct RequestedDestination {
  std::string host;  // as the client wrote it
  int port = 0;
  std::optional<std::string> method;  // plain HTTP only
  std::optional<std::string> path;    // plain HTTP only, origin-form
};

struct NameDecision {
  bool allowed = false;
  std::string reason;  // why not, or which entry allowed it ("registry.npmjs.org:443 from taskpack.yaml:12:9")
  std::string host;    // the normalised name the proxy resolves and compares SNI with
};

using lw::canonicalHostName;
using lw::hostMatches;

NameDecision decideName(const std::vector<EgressRule>& rules, const RequestedDestination& d);

}  // namespace lw::egress
