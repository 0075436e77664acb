#include "egress/allow_list.h"

#include <algorithm>

#include "core/ascii.h"

namespace lw::egress {

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
