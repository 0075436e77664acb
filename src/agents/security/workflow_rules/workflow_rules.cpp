#include "agents/security/workflow_rules/workflow_rules.h"

#include "agents/security/text.h"

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
  cacheInReleaseHits(w, lines, out);
  unsecureCommandsHits(w, lines, out);
  botActorConditionHits(w, out);
  selfHostedPullRequestHits(w, out);
  runCurlPipeShellHits(w, lines, out);
  overprovisionedSecretsHits(lines, out);
  unredactedSecretsHits(lines, out);
  unsoundConditionHits(w, lines, out);
  unsoundContainsHits(w, out);
  hardcodedContainerCredentialsHits(w, out);
  trustedPublishingHits(w, lines, out);
  githubAppTokenHits(w, out);
  concurrencyLimitsHits(w, out);
  obfuscationHits(w, lines, out);
  undocumentedPermissionsHits(w, lines, out);
  typosquatUsesHits(w, out);
  secretsOutsideEnvironmentHits(w, lines, out);
  unpinnedToolsHits(w, out);
  adhocPackagesHits(w, lines, out);
  superfluousActionsHits(w, out);
  misfeatureHits(w, out);
  selfHostedRunnerHits(w, out);
  unsoundTernaryHits(lines, out);
  agentPromptInjectionHits(w, lines, out);
  agentUntrustedActorHits(w, out);
  agentUntrustedCheckoutHits(w, out);
  agentDangerousModeHits(w, lines, out);
  agentUnrestrictedShellHits(w, lines, out);
  agentMcpSecretHits(w, lines, out);
  defaultPermissionsHits(w, out);
  broadPermissionsHits(w, out);
  debugLoggingHits(w, out);
  workspaceRelativeUsesHits(w, out);
  archivedActionHits(w, out);
  dangerousTriggerHits(w, out);
  return out;
}

int locate(const FileLines& lines, int fromLine, std::string_view needle) {
  for (int i = std::max(fromLine, 1); i <= static_cast<int>(lines.size()); ++i)
    if (lines[static_cast<std::size_t>(i - 1)].find(needle) != std::string_view::npos) return i;
  return fromLine;
}

// A block scalar's value lines are its file lines in order; a plain or
// quoted scalar folds its lines, so each value line is looked for from
// where the previous one was found.
std::vector<int> valueLineNumbers(const FileLines& lines, int startLine,
                                  const std::vector<std::string_view>& valueLines) {
  std::vector<int> out;
  int cursor = startLine;
  for (std::string_view v : valueLines) {
    std::string_view t = trim(v);
    int at = t.empty() ? cursor : locate(lines, cursor, t);
    out.push_back(at);
    cursor = at;
  }
  return out;
}

bool neverRuns(const StepModel& s) {
  std::string condition = lowerCase(trim(s.ifCond.text));
  std::erase(condition, ' ');
  return condition == "false" || condition == "${{false}}";
}

bool isPrivileged(const WorkflowModel& w) {
  return w.hasTrigger("pull_request_target") || w.hasTrigger("workflow_run");
}

}  // namespace lw::agents::security
