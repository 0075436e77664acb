// Reading spec.stages and their steps.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "policy/taskpack.h"
#include "policy/yaml_schema.h"

namespace lw {

// The events a stage's `on:` may name; "<event>" or "<event>.<action>".
inline constexpr std::string_view kKnownEvents[] = {
    "pull_request", "pull_request_target", "issues", "issue_comment", "workflow_dispatch"};

// The built-in steps this version ships (`uses: builtin/<name>`); none yet,
// so a taskpack naming one is told so at validation, not at run time.
inline constexpr std::array<std::string_view, 0> kBuiltinSteps = {};

void readStages(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path,
                const std::string& homeDir, std::vector<Stage>& out);

}  // namespace lw
