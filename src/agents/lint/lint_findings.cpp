#include "agents/lint/lint_findings.h"

#include <algorithm>

#include "agents/lint/lint_paths.h"

namespace lw::agents::lint {

std::string ruleId(const std::string& prefix, const std::string& rule) {
  if (rule.empty()) return prefix;
  return prefix + "/" + rule;
}

Conversion toFindings(const std::vector<LintDiagnostic>& diagnostics, const FindingOptions& options) {
  Conversion out;
  for (const LintDiagnostic& d : diagnostics) {
    std::optional<std::string> path = repositoryPath(d.path, options.workspaceRoots);
    if (!path) {
      out.outsidePaths.push_back(d.path);
      continue;
    }
    Finding f;
    f.ruleId = ruleId(options.rulePrefix, d.rule);
    f.severity = d.severity.value_or(options.defaultSeverity);
    f.message = d.message;
    f.path = *path;
    f.line = f.path.empty() ? 0 : d.line;
    f.endLine = f.line > 0 && d.endLine > d.line ? d.endLine : 0;
    if (f.line > 0) f.suggestion = d.suggestion;
    out.findings.push_back(std::move(f));
  }
  return out;
}

std::vector<Finding> mostSevere(std::vector<Finding> findings, std::size_t max) {
  // Severity's order is Error, Warning, Notice: most severe first.
  std::stable_sort(findings.begin(), findings.end(),
                   [](const Finding& a, const Finding& b) { return a.severity < b.severity; });
  if (findings.size() > max) findings.resize(max);
  return findings;
}

}  // namespace lw::agents::lint
