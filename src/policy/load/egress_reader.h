// Reads an egress allow-list (sandbox.egress in a taskpack, floor.egress in
// a host config): each entry "host", "host:port", or a mapping with host,
// port and plain-HTTP rules. docs/egress.md is the reference.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "policy/model/egress_rule.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {

inline constexpr std::size_t kMaxEgressEntries = 64;

// The list, or nullopt when it is not a list (each bad entry is reported
// and left out, so the rest is still checked).
std::optional<std::vector<EgressRule>> readEgressList(YamlSchemaReader& reader, const YAML::Node& node,
                                                      const std::string& path);

// An egress list given on a command line (`sandbox exec`): `entries` of
// `--egress` (each "host" or "host:port", its origin the flag), then the
// YAML list of the file `listFile` when given (the syntax of sandbox.egress,
// origins file:line:col). Fails with USAGE_ERROR carrying every problem.
Result<std::vector<EgressRule>> readCommandLineEgress(const std::vector<std::string>& entries,
                                                      const std::optional<std::string>& listFile);

}  // namespace lw
