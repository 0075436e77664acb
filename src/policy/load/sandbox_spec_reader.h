// Reading the `sandbox:` mapping (spec.sandbox and each step's override).
#pragma once

#include <optional>
#include <string>

#include "policy/model/taskpack.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {

// Reads a sandbox mapping at `path`; "~/" in deniedReadPaths expands against
// homeDir. Problems are recorded in `reader`; returns what could be read.
std::optional<SandboxSpec> readSandboxSpec(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path,
                                           const std::string& homeDir);

// "~/x" -> homeDir + "/x", then lexically normalised. Returns nullopt for a
// path that is neither absolute nor under "~/" (relative paths are ambiguous).
std::optional<std::string> expandUserPath(const std::string& path, const std::string& homeDir);

}  // namespace lw
