// Turning untrusted YAML text into a yaml-cpp tree: text checks (size, NUL,
// UTF-8, nesting) first, then the parser, whose exceptions become diagnostics
// with the line and column it reports.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/error.h"

namespace lw {

// Deeper nesting than any valid loopwright document needs; checked before
// yaml-cpp sees the text so its recursive parser stays far from the stack limit.
inline constexpr int kMaxYamlNesting = 64;

// Where yaml-cpp's mark points, 1-based (line and column 0 for a null mark).
Location yamlLocation(const std::string& file, const YAML::Mark& mark);

// The root node, or nullopt with diagnostics appended.
std::optional<YAML::Node> parseYamlDocument(std::string_view text, const std::string& file, std::size_t maxBytes,
                                            std::vector<Diagnostic>& diagnostics);

}  // namespace lw
