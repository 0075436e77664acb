#include <algorithm>

#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

std::string position(const Location& at) {
  if (at.line <= 0) return "";
  std::string text = "line " + std::to_string(at.line);
  if (at.column > 0) text += ", column " + std::to_string(at.column);
  return text + ": ";
}

std::vector<int> anchorsFor(int errorLine, const std::vector<int>& added) {
  std::vector<int> anchors;
  if (errorLine > 0) {
    anchors.push_back(errorLine);
    auto above = std::lower_bound(added.begin(), added.end(), errorLine);
    if (above != added.begin()) anchors.push_back(*std::prev(above));
  }
  if (!added.empty()) anchors.push_back(added.front());
  return anchors;
}

}  // namespace

std::string unreadableReason(const Error& why) { return position(why.location.value_or(Location{})) + why.message; }

RuleHit unparsedFileHit(const Error& why, std::string_view file, std::string_view rules,
                        const std::vector<int>& addedLines) {
  std::string detail = "This " + std::string(file) + " cannot be read (" + unreadableReason(why) + "), so none of " +
                       std::string(rules) + " were checked on it.";
  int errorLine = why.location ? why.location->line : 0;
  return {"security/unparsed-workflow", std::move(detail), anchorsFor(errorLine, addedLines)};
}

RuleHit unparsedWorkflowHit(const Error& why, bool isAction, const std::vector<int>& addedLines) {
  return unparsedFileHit(why, isAction ? "action file" : "workflow file", "the workflow rules", addedLines);
}

}  // namespace lw::agents::security
