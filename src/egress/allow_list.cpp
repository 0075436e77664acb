#include "egress/allow_list.h"

#include <algorithm>

#include "core/ascii.h"

namespace lw::egress {

namespace {

bool httpRuleMatches(const EgressHttpRule& r, const RequestedDestination& d) {
  if (!r.method.empty() && r.method != d.method.value_or("")) return false;
  return d.path.value_or("").starts_with(r.pathPrefix);
}

std::string describe(const EgressRule& r) {
  return r.host + ":" + std::to_string(r.port) + (r.origin.empty() ? "" : " from " + r.origin);
}

// Why an entry whose name and port match still refuses the request, or
// nullopt when it allows it.
std::optional<std::string> refusalBy(const EgressRule& r, const RequestedDestination& d) {
  if (r.http.empty()) return std::nullopt;
  if (!d.method) return "the entry " + describe(r) + " allows only plain-HTTP requests it lists, not a tunnel";
  for (const EgressHttpRule& h : r.http)
    if (httpRuleMatches(h, d)) return std::nullopt;
  return "the entry " + describe(r) + " does not allow " + *d.method + " " + d.path.value_or("");
}

}  // namespace

NameDecision decideName(const std::vector<EgressRule>& rules, const RequestedDestination& d) {
  const auto host = canonicalHostName(d.host);
  if (!host) return {false, "'" + d.host + "' is not a host name; the egress list names hosts, never addresses", ""};
  std::optional<std::string> refusal;
  for (const EgressRule& r : rules) {
    if (r.port != d.port || !hostMatches(r.host, *host)) continue;
    refusal = refusalBy(r, d);
    if (!refusal) return {true, "allowed by " + describe(r), *host};
  }
  if (refusal) return {false, *refusal, *host};
  return {false, *host + ":" + std::to_string(d.port) + " is not in the step's egress list", *host};
}

}  // namespace lw::egress
