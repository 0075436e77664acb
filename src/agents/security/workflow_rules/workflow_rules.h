// The GitHub Actions rules over one parsed workflow or action file. Each
// returns its hits with anchors on file lines; the scanner keeps those the
// pull request added.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agents/security/rules.h"
#include "agents/security/text.h"
#include "agents/security/workflow/workflow_model.h"
#include "core/error.h"

namespace lw::agents::security {

// Every workflow rule, in the order of the rules table.
std::vector<RuleHit> workflowHits(const WorkflowModel& w, const FileLines& lines, std::string_view repositoryOwner);

// workflow_injection_rules.cpp: what a run: or script: does with its text.
void expressionInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void githubEnvInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void runCurlPipeShellHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void unsecureCommandsHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);

// workflow_trigger_rules.cpp: what the triggers make risky.
void untrustedCheckoutHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void permissionsHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void selfHostedPullRequestHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void botActorConditionHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void cacheInReleaseHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);

// workflow_pinning_rules.cpp: code and images from elsewhere.
void unpinnedActionHits(const WorkflowModel& w, std::vector<RuleHit>& out);
// A `uses: ./…` (the workspace's file) where `$/…` (this repository's) is meant.
void workspaceRelativeUsesHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void unpinnedImageHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void secretsInheritHits(const WorkflowModel& w, std::string_view repositoryOwner, std::vector<RuleHit>& out);
void persistCredentialsHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// workflow_secret_rules.cpp: how credentials are handed out.
void overprovisionedSecretsHits(const FileLines& lines, std::vector<RuleHit>& out);
void unredactedSecretsHits(const FileLines& lines, std::vector<RuleHit>& out);
void hardcodedContainerCredentialsHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void githubAppTokenHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void secretsOutsideEnvironmentHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);

// workflow_condition_rules.cpp: `if:` that does not test what it seems to.
void unsoundConditionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void unsoundContainsHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void unsoundTernaryHits(const FileLines& lines, std::vector<RuleHit>& out);

// workflow_publishing_rules.cpp: registry tokens where OIDC works.
void trustedPublishingHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);

// workflow_obfuscation_rules.cpp: uses: paths and constant expressions that hide what they are.
void obfuscationHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);

// workflow_typosquat_rule.cpp: look-alikes of widely used actions.
void typosquatUsesHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// workflow_archived_rule.cpp: actions and reusable workflows from archived repositories.
void archivedActionHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// workflow_tooling_rules.cpp: how tools and packages get onto the runner.
void unpinnedToolsHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void adhocPackagesHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void superfluousActionsHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void misfeatureHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// workflow_runner_rule.cpp: jobs that may run on self-hosted runners (auditor).
void selfHostedRunnerHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// workflow_hygiene_rules.cpp: pedantic rules.
void concurrencyLimitsHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void undocumentedPermissionsHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);

// workflow_agent_rules.cpp and workflow_agent_mode_rules.cpp: steps that run
// an AI agent (agent_catalogue.h), on the inputs each action documents.
void agentPromptInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void agentUntrustedActorHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void agentUntrustedCheckoutHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void agentDangerousModeHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void agentUnrestrictedShellHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);
void agentMcpSecretHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out);

// workflow_injection_rules.cpp: ACTIONS_STEP_DEBUG / ACTIONS_RUNNER_DEBUG set true in env:.
void debugLoggingHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// workflow_permission_rules.cpp: tokens broader than the jobs are shown to need.
void defaultPermissionsHits(const WorkflowModel& w, std::vector<RuleHit>& out);
void broadPermissionsHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// workflow_unparsed_rule.cpp: a file the rules above could not read.
// "line 5, column 4: YAML syntax error: …": where and why, from
// parseWorkflow's error (the position left out when it named none).
std::string unreadableReason(const Error& why);
// The security/unparsed-workflow hit: on the line the parser named, else on
// the nearest added line above it (a parser stops at or after the mistake),
// else on the first added line, so that a changed file is always reported.
RuleHit unparsedWorkflowHit(const Error& why, bool isAction, const std::vector<int>& addedLines);
// The same for any file the scanner reads as YAML: "This `file` cannot be
// read (…), so none of `rules` were checked on it."
RuleHit unparsedFileHit(const Error& why, std::string_view file, std::string_view rules,
                        const std::vector<int>& addedLines);

// workflow_dangerous_trigger_rule.cpp: pull_request_target and workflow_run themselves.
void dangerousTriggerHits(const WorkflowModel& w, std::vector<RuleHit>& out);

// Helpers the rule files share.
// The first file line at or after `fromLine` that contains `needle`; `fromLine` when none does.
int locate(const FileLines& lines, int fromLine, std::string_view needle);
// The file line of each line of a scalar's value that starts on `startLine`.
std::vector<int> valueLineNumbers(const FileLines& lines, int startLine,
                                  const std::vector<std::string_view>& valueLines);
// A step whose `if:` is the constant false (`false`, `${{ false }}`): it never runs.
bool neverRuns(const StepModel& s);
// On pull_request_target or workflow_run: the base repository's token and
// secrets, with an outsider's input (and often their files) in the job.
bool isPrivileged(const WorkflowModel& w);
// A checkout `ref:` that names the pull request's code rather than the base.
bool refIsPullRequestHead(std::string_view ref);

}  // namespace lw::agents::security
