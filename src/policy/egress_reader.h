// Reads an egress allow-list (sandbox.egress in a taskpack, floor.egress in
// a host config): each entry "host", "host:port", or a mapping with host,
// port and plain-HTTP rules. docs/egress.md is the reference.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "policy/egress_rule.h"
#include "policy/yaml_schema.h"

namespace lw {

inline constexpr std::size_t kMaxEgressEntries = 64;

// The list, or nullopt when it is not a list (each bad entry is reported
// and left out, so the rest is still checked).
std::optional<std::vector<EgressRule>> readEgressList(YamlSchemaReader& reader, const YAML::Node& node,
                                                      const std::string& path);

}  // namespace lw
