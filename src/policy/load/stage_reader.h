// Reading spec.stages and their steps.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "policy/model/taskpack.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {

// The events a stage's `on:` may name; "<event>" or "<event>.<action>".
inline constexpr std::string_view kKnownEvents[] = {"pull_request", "pull_request_target", "issues", "issue_comment",
                                                    "workflow_dispatch"};

void readStages(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, const std::string& homeDir,
                std::vector<Stage>& out);

}  // namespace lw
