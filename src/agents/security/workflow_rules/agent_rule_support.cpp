#include "agents/security/workflow_rules/agent_rule_support.h"

#include <array>

#include "agents/security/workflow/expression_code.h"
#include "agents/security/workflow/untrusted_context.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

// Events whose runs hold the base repository's token and secrets while an
// outsider chose their content: comments and issues anyone can write, review
// comments on pull requests of the repository itself, pull_request_target and
// workflow_run after a fork's run; slash_command and command are gh-aw's
// comment triggers. A plain pull_request from a fork runs without secrets and
// with a read-only token, so it is not among them.
constexpr std::array kOutsiderEvents = {"pull_request_target",
                                        "issue_comment",
                                        "issues",
                                        "discussion",
                                        "discussion_comment",
                                        "pull_request_review",
                                        "pull_request_review_comment",
                                        "workflow_run",
                                        "slash_command",
                                        "command"};

// Scopes whose write lets an agent change the repository, its pull requests,
// issues, releases or runs. id-token is left out: it mints a cloud identity,
// which agents use to reach their model (claude-code-action's federation),
// and is not a write to the repository.
constexpr std::array kWriteScopes = {"contents", "pull-requests",   "issues",      "discussions",
                                     "actions",  "packages",        "deployments", "checks",
                                     "statuses", "security-events", "pages",       "repository-projects"};

}  // namespace

const Located* outsiderTrigger(const std::vector<Located>& triggers) {
  for (const Located& t : triggers)
    for (std::string_view e : kOutsiderEvents)
      if (t.text == e) return &t;
  return nullptr;
}

std::optional<WriteGrant> writeGrant(const Located& scalar, const LocatedMap& scopes) {
  if (!scalar.present()) return WriteGrant{"the default token (no `permissions:`)", 0};
  if (scalar.text == "write-all") return WriteGrant{"`write-all`", scalar.line};
  WriteGrant grant;
  for (const auto& [scope, level] : scopes)
    for (std::string_view w : kWriteScopes)
      if (scope == w && level.text == "write") {
        grant.what += (grant.what.empty() ? "`" : ", `") + scope + ": write`";
        if (grant.line == 0) grant.line = level.line;
      }
  if (grant.what.empty()) return std::nullopt;
  return grant;
}

std::optional<WriteGrant> jobWriteGrant(const WorkflowModel& w, const JobModel& j) {
  if (j.permissions.present()) return writeGrant(j.permissions, j.permissionScopes);
  return writeGrant(w.permissions, w.permissionScopes);
}

bool checksAuthorAssociation(const Located& condition) {
  std::string c = lowerCase(condition.text);
  if (!containsText(c, "author_association")) return false;
  return containsText(c, "owner") || containsText(c, "member") || containsText(c, "collaborator");
}

std::vector<std::string> namedSecrets(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view e : expressionsIn(text))
    for (std::string& name : secretsRead(e))
      if (name != "…") out.push_back(std::move(name));
  return out;
}

void forEachOutsiderText(std::string_view text, int startLine, const FileLines& lines, const FlowScope& at,
                         const std::function<void(const std::string& via, int line)>& f) {
  int cursor = startLine;
  for (std::string_view e : expressionsIn(text)) {
    int line = locate(lines, cursor, e);
    cursor = line;
    for (const Taint& t : expressionTaints(e, at))
      if (t.reach == Reach::Attacker) f(t.via, line);
  }
}

}  // namespace lw::agents::security
