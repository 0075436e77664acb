#include "agents/security/workflow_rules.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace lw::agents::security {

std::vector<RuleHit> workflowHits(const WorkflowModel& w, const FileLines& lines, std::string_view repositoryOwner) {
  std::vector<RuleHit> out;
  expressionInjectionHits(w, lines, out);
  githubEnvInjectionHits(w, lines, out);
  untrustedCheckoutHits(w, lines, out);
  permissionsHits(w, out);
  unpinnedActionHits(w, out);
  unpinnedImageHits(w, out);
  secretsInheritHits(w, repositoryOwner, out);
  persistCredentialsHits(w, out);
  cacheInReleaseHits(w, out);
  unsecureCommandsHits(w, lines, out);
  botActorConditionHits(w, out);
  selfHostedPullRequestHits(w, out);
  runCurlPipeShellHits(w, lines, out);
  return out;
}

int locate(const FileLines& lines, int fromLine, std::string_view needle) {
  for (int i = std::max(fromLine, 1); i <= static_cast<int>(lines.size()); ++i)
    if (lines[static_cast<std::size_t>(i - 1)].find(needle) != std::string_view::npos) return i;
  return fromLine;
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

// A block scalar's value lines are its file lines in order; a plain or
// quoted scalar folds its lines, so each value line is looked for from
// where the previous one was found.
std::vector<int> valueLineNumbers(const FileLines& lines, int startLine, const std::vector<std::string_view>& valueLines) {
  std::vector<int> out;
  int cursor = startLine;
  for (std::string_view v : valueLines) {
    std::string_view t = trimmed(v);
    int at = t.empty() ? cursor : locate(lines, cursor, t);
    out.push_back(at);
    cursor = at;
  }
  return out;
}

bool usesAction(const StepModel& s, std::string_view ownerRepo) {
  std::string_view u = s.uses.text;
  std::size_t at = u.find('@');
  std::string name(u.substr(0, at));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name == ownerRepo;
}

}  // namespace lw::agents::security
