// From what a linter reported to the findings builtin/lint writes: paths
// made repository-relative, the `severity` parameter for diagnostics that
// carry none, rule ids "<rulePrefix>/<tool rule>", and the most severe first
// when there are more than maxFindings. Pure.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "agents/lint/lint_diagnostic.h"
#include "core/finding.h"

namespace lw::agents::lint {

struct FindingOptions {
  Severity defaultSeverity = Severity::Warning;
  std::string rulePrefix = "lint";
  std::vector<std::filesystem::path> workspaceRoots;  // the workspace as given and resolved
};

struct Conversion {
  std::vector<Finding> findings;
  std::vector<std::string> outsidePaths;  // paths dropped: outside the workspace
};

Conversion toFindings(const std::vector<LintDiagnostic>& diagnostics, const FindingOptions& options);

// "<prefix>/<rule>"; the prefix alone for a diagnostic without a rule.
std::string ruleId(const std::string& prefix, const std::string& rule);

// At most `max` findings, errors before warnings before notices, each
// severity in the linter's order.
std::vector<Finding> mostSevere(std::vector<Finding> findings, std::size_t max);

}  // namespace lw::agents::lint
