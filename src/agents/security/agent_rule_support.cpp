#include "agents/security/agent_rule_support.h"

#include <array>
#include <cctype>

#include "agents/security/untrusted_context.h"
#include "agents/security/workflow_rules.h"

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

// Whether a lower-case expression reads `env.<name>` (not a longer name).
bool readsEnv(std::string_view expression, const std::string& name) {
  std::string ref = "env." + name;
  for (std::size_t at = expression.find(ref); at != std::string_view::npos; at = expression.find(ref, at + 1)) {
    std::size_t end = at + ref.size();
    bool whole = end == expression.size() || !(std::isalnum(static_cast<unsigned char>(expression[end])) ||
                                               expression[end] == '_' || expression[end] == '-');
    bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(expression[at - 1])) ||
                               expression[at - 1] == '_' || expression[at - 1] == '.');
    if (whole && starts) return true;
  }
  return false;
}

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
  for (std::string_view e : expressionsIn(text)) {
    std::string lower = lowerCase(e);
    for (std::size_t at = lower.find("secrets."); at != std::string::npos; at = lower.find("secrets.", at + 1)) {
      std::size_t end = at + 8;
      while (end < e.size() && (std::isalnum(static_cast<unsigned char>(e[end])) || e[end] == '_')) ++end;
      std::string name(e.substr(at + 8, end - at - 8));
      if (!name.empty() && lowerCase(name) != "github_token") out.push_back(name);
    }
  }
  return out;
}

void forEachUntrustedRef(std::string_view text, int startLine, const FileLines& lines,
                         const std::vector<std::string>& taintedEnv,
                         const std::function<void(const std::string& ref, int line)>& f) {
  int cursor = startLine;
  for (std::string_view e : expressionsIn(text)) {
    int line = locate(lines, cursor, e);
    cursor = line;
    for (const std::string& ref : untrustedRefsIn(e)) f(ref, line);
    std::string lower = lowerCase(e);
    for (const std::string& name : taintedEnv)
      if (readsEnv(lower, lowerCase(name))) f("env." + name, line);
  }
}

}  // namespace lw::agents::security
