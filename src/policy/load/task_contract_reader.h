// Reading an author step's task contract (expects, validate, maxChangedFiles,
// maxChangedLines, maxBinaryBytes, gitRuleFiles, onStop; docs/taskpack.md
// "Task contract") from the step's mapping, each problem with its
// file:line:col.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "policy/model/taskpack.h"
#include "policy/yaml/yaml_schema.h"

namespace lw {

// The step keys the contract is written with.
inline constexpr std::array<std::string_view, 7> kTaskContractKeys = {
    "expects", "validate", "maxChangedFiles", "maxChangedLines", "maxBinaryBytes", "gitRuleFiles", "onStop"};

bool isTaskContractKey(std::string_view key);

// Reads one contract key of a step (`entry.key` is one of kTaskContractKeys)
// into `out`; `path` is the key's YAML path.
void readTaskContractKey(YamlSchemaReader& reader, const MapEntry& entry, const std::string& path, TaskContract& out);

// What needs the whole step: a contract only on `role: author`, and each
// `expects` and `gitRuleFiles` entry inside the step's `writable:` scope.
// `stepPath` is the step's YAML path.
void checkTaskContract(YamlSchemaReader& reader, const std::vector<MapEntry>& entries, const std::string& stepPath,
                       const Step& step);

}  // namespace lw
