#include "policy/model/tool_names.h"

#include <algorithm>

namespace lw {

const std::vector<std::string_view>& knownToolNames() {
  // Kept in step with the bridge: bridge/builtin_tools.h (findings.report,
  // github.event), bridge/model_tool.h (model.complete) and
  // bridge/github_read_tools.h (the seven GitHub reads).
  static const std::vector<std::string_view> kNames = {
      tools::kFindingsReport,     tools::kGithubEvent,  tools::kGithubFile, tools::kGithubIssue,
      tools::kGithubIssuesSearch, tools::kGithubLabels, tools::kGithubPull, tools::kGithubPullsDiff,
      tools::kGithubPullsFiles,   tools::kModelComplete};
  return kNames;
}

bool isKnownTool(std::string_view name) {
  const auto& names = knownToolNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace lw
