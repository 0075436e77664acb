// The bridge tools a step may be granted (`tools:` in a taskpack step), so
// that `validate` refuses a name no bridge offers instead of a step finding
// out at run time. findings.report and github.event every step has; the
// rest are granted per step (model.complete also by `lane:`).
#pragma once

#include <string_view>
#include <vector>

namespace lw {

// Every tool name the bridge knows, sorted.
const std::vector<std::string_view>& knownToolNames();

bool isKnownTool(std::string_view name);

}  // namespace lw
