// Rules on how a workflow hands out credentials: the whole secrets object,
// secrets decoded past the log redaction, secrets outside an environment,
// registry passwords written into the file, and GitHub App tokens wider or
// longer-lived than the job needs.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "agents/security/workflow/expression_code.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

// `toJSON(secrets)`, or `secrets[…]` indexed by anything but a literal: every
// secret of the repository reaches the job, not the ones it names.
bool expandsAllSecrets(std::string_view code) {
  for (std::size_t at = code.find("tojson(secrets)"); at != std::string_view::npos;
       at = code.find("tojson(secrets)", at + 1))
    if (startsName(code, at)) return true;
  for (std::size_t at = code.find("secrets["); at != std::string_view::npos; at = code.find("secrets[", at + 1))
    if (startsName(code, at) && code.substr(at + 8, 2) != "''") return true;
  return false;
}

// `fromJSON(secrets.X)`: the parts of a decoded secret are new strings the
// runner has never been told to mask.
bool decodesSecret(std::string_view code) {
  constexpr std::string_view kCall = "fromjson(secrets";
  for (std::size_t at = code.find(kCall); at != std::string_view::npos; at = code.find(kCall, at + 1)) {
    char next = at + kCall.size() < code.size() ? code[at + kCall.size()] : '\0';
    if (startsName(code, at) && (next == ')' || next == '.' || next == '[')) return true;
  }
  return false;
}

bool isExpression(std::string_view value) {
  std::string_view t = trim(value);
  return t.starts_with("${{") && t.ends_with("}}");
}

// actions/create-github-app-token's inputs that reach only organisation
// resources: a token limited to them needs no repository scope. From the
// action's action.yml (permission-* inputs) and zizmor's github-app audit.
constexpr std::array kOrganizationOnlyPermissions = {
    "permission-custom-properties-for-organizations",
    "permission-enterprise-custom-properties-for-organizations",
    "permission-members",
    "permission-organization-administration",
    "permission-organization-announcement-banners",
    "permission-organization-copilot-seat-management",
    "permission-organization-custom-org-roles",
    "permission-organization-custom-properties",
    "permission-organization-custom-roles",
    "permission-organization-events",
    "permission-organization-hooks",
    "permission-organization-packages",
    "permission-organization-personal-access-token-requests",
    "permission-organization-personal-access-tokens",
    "permission-organization-plan",
    "permission-organization-projects",
    "permission-organization-secrets",
    "permission-organization-self-hosted-runners",
    "permission-organization-user-blocking",
};

bool organizationOnly(std::string_view input) {
  return std::find(kOrganizationOnlyPermissions.begin(), kOrganizationOnlyPermissions.end(), input) !=
         kOrganizationOnlyPermissions.end();
}

// What is wrong with one create-github-app-token step, each with its line.
void appTokenHits(const StepModel& s, std::vector<RuleHit>& out) {
  constexpr std::string_view kRule = "security/github-app-token";
  if (const Located* revoke = s.withValue("skip-token-revoke")) {
    if (lowerCase(trim(revoke->text)) == "true")
      out.push_back({kRule,
                     "This GitHub App token is not revoked when the job ends (`skip-token-revoke: true`).",
                     {revoke->line, s.uses.line}});
    else if (isExpression(revoke->text))
      out.push_back({kRule,
                     "This GitHub App token may not be revoked when the job ends (`skip-token-revoke` is "
                     "computed).",
                     {revoke->line, s.uses.line}});
  }
  bool anyPermission = false, repositoryPermission = false;
  for (const auto& [key, value] : s.with)
    if (key.starts_with("permission-")) {
      anyPermission = true;
      repositoryPermission = repositoryPermission || !organizationOnly(key);
    }
  const Located* owner = s.withValue("owner");
  if (owner != nullptr && s.withValue("repositories") == nullptr && (repositoryPermission || !anyPermission))
    out.push_back({kRule,
                   "This GitHub App token reaches every repository of `" + owner->text +
                       "` the app is installed on (`owner:` without `repositories:`).",
                   {owner->line, s.uses.line}});
  if (!anyPermission)
    out.push_back({kRule,
                   "This GitHub App token has every permission the app was granted (no `permission-*` input).",
                   {s.uses.line}});
}

// The file lines of each job: from its key to the line before the next job's.
std::vector<std::pair<int, int>> jobSpans(const WorkflowModel& w, int lastLine) {
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < w.jobs.size(); ++i)
    out.emplace_back(w.jobs[i].line, i + 1 < w.jobs.size() ? w.jobs[i + 1].line - 1 : lastLine);
  return out;
}

}  // namespace

void secretsOutsideEnvironmentHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  // A reusable workflow cannot use its environment's secrets unless the
  // caller passes them, so environments there are no remedy.
  if (w.isAction || w.hasTrigger("workflow_call")) return;
  std::vector<std::pair<int, int>> spans = jobSpans(w, static_cast<int>(lines.size()));
  std::vector<FileExpression> expressions = fileExpressions(lines);
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    if (w.jobs[i].environment.present()) continue;
    for (const FileExpression& e : expressions) {
      if (e.line < spans[i].first || e.line > spans[i].second) continue;
      for (const std::string& name : secretsRead(e.text))
        out.push_back({"security/secrets-outside-env",
                       "Job `" + w.jobs[i].id + "` reads secret `" + name + "` but has no `environment:`.",
                       {e.line}});
    }
  }
}

void overprovisionedSecretsHits(const FileLines& lines, std::vector<RuleHit>& out) {
  for (const FileExpression& e : fileExpressions(lines))
    if (expandsAllSecrets(expressionCode(e.text)))
      out.push_back({"security/overprovisioned-secrets",
                     "`" + std::string(e.text) + "` hands every secret of the repository to the job.",
                     {e.line}});
}

void unredactedSecretsHits(const FileLines& lines, std::vector<RuleHit>& out) {
  for (const FileExpression& e : fileExpressions(lines))
    if (decodesSecret(expressionCode(e.text)))
      out.push_back({"security/unredacted-secrets",
                     "`" + std::string(e.text) + "` decodes a secret: its parts are not masked in the logs.",
                     {e.line}});
}

void hardcodedContainerCredentialsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (const Located& password : j.registryPasswords)
      if (!isExpression(password.text))
        out.push_back({"security/hardcoded-container-credentials",
                       "Job `" + j.id + "` writes a container registry password into the workflow.",
                       {password.line}});
}

void githubAppTokenHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      if (usesAction(s, "actions/create-github-app-token")) appTokenHits(s, out);
}

}  // namespace lw::agents::security
