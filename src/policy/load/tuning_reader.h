// Reading the numeric tuning of a taskpack: guardrails, limits, lanes.
#pragma once

#include <string>
#include <vector>

#include "policy/model/taskpack.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {

void readGuardrails(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, Guardrails& out);
// Reads spec.limits into `out` (budgets) and `resources` (the OS limits
// written there, each with its bounds; sizes in strict units).
void readLimits(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, Limits& out,
                ResourceLimitsOverride& resources);
// Reads a step's limits: each field optional.
void readLimitsOverride(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, LimitsOverride& out);
void readLanes(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, std::vector<Lane>& out);

}  // namespace lw
