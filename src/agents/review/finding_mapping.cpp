#include "agents/review/finding_mapping.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace lw::agents::review {

namespace {

std::string lineRange(const ModelFinding& m) {
  return m.endLine > m.startLine ? "lines " + std::to_string(m.startLine) + "-" + std::to_string(m.endLine)
                                 : "line " + std::to_string(m.startLine);
}

}  // namespace

Finding toFinding(const ModelFinding& m, const diff::DiffIndex& diff) {
  Finding f;
  f.ruleId = "review/" + m.rule;
  f.severity = m.severity;
  f.message = m.message;
  f.path = m.path;
  std::optional<diff::CommentPlacement> at = diff.place(m.path, m.startLine, m.endLine);
  if (!at) {
    f.message += "\n\n(" + lineRange(m) + " of " + m.path + ", outside the diff)";
    return f;
  }
  f.line = at->startLine > 0 ? at->startLine : at->line;
  f.endLine = at->startLine > 0 ? at->line : 0;
  if (!at->clipped)
    f.suggestion = m.suggestion;
  else
    f.message += "\n\n(" + lineRange(m) + "; only line " + std::to_string(at->line) + " is in the diff)";
  return f;
}

std::vector<ModelFinding> keepWorthReporting(std::vector<ModelFinding> findings, Severity minSeverity,
                                             double minConfidence, int maxFindings) {
  std::vector<ModelFinding> kept;
  std::set<std::tuple<std::string, int, int, std::string>> seen;
  for (ModelFinding& f : findings) {
    if (static_cast<int>(f.severity) > static_cast<int>(minSeverity) || f.confidence < minConfidence) continue;
    if (!seen.insert({f.path, f.startLine, f.endLine, f.rule}).second) continue;
    kept.push_back(std::move(f));
  }
  // Severity's enum order is most severe first.
  std::stable_sort(kept.begin(), kept.end(), [](const ModelFinding& a, const ModelFinding& b) {
    if (a.severity != b.severity) return static_cast<int>(a.severity) < static_cast<int>(b.severity);
    return a.confidence > b.confidence;
  });
  if (static_cast<int>(kept.size()) > maxFindings) kept.resize(static_cast<std::size_t>(maxFindings));
  return kept;
}

}  // namespace lw::agents::review
