// The bridge tools a step may be granted (`tools:` in a taskpack step), so
// that `validate` refuses a name no bridge offers instead of a step finding
// out at run time. findings.report and github.event every step has; the
// rest are granted per step (model.complete also by `lane:`).
#pragma once

#include <string_view>
#include <vector>

namespace lw {

// Each tool's name, as a step calls it and a taskpack grants it. Character
// arrays, so that they convert to std::string and std::string_view alike.
namespace tools {
inline constexpr char kFindingsReport[] = "findings.report";
inline constexpr char kGithubEvent[] = "github.event";
inline constexpr char kGithubFile[] = "github.file";
inline constexpr char kGithubIssue[] = "github.issue";
inline constexpr char kGithubIssuesSearch[] = "github.issues.search";
inline constexpr char kGithubLabels[] = "github.labels";
inline constexpr char kGithubPull[] = "github.pull";
inline constexpr char kGithubPullsDiff[] = "github.pulls.diff";
inline constexpr char kGithubPullsFiles[] = "github.pulls.files";
inline constexpr char kModelComplete[] = "model.complete";
}  // namespace tools

// Every tool name the bridge knows, sorted.
const std::vector<std::string_view>& knownToolNames();

bool isKnownTool(std::string_view name);

}  // namespace lw
