// Pedantic rules: what a careful maintainer fixes though it is not a flaw
// by itself. Runs that pile up instead of being cancelled (a cost an
// outsider can drive by pushing), and permissions nobody explained.
#include <string>

#include "agents/security/text.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

// A workflow only other workflows call leaves concurrency to its callers
// (setting it there deadlocks or cancels the caller).
bool reusableOnly(const WorkflowModel& w) {
  return w.triggers.size() == 1 && w.triggers.front().text == "workflow_call";
}

// `concurrency: group` (a scalar): a group but no cancel-in-progress. The
// mapping form is a choice the author made, cancel-in-progress: false too.
bool bareGroup(const Located& concurrency) { return concurrency.present() && concurrency.text != "{}"; }

// A comment after the value on the scope's own line, with some text.
bool documented(const FileLines& lines, int line) {
  if (line < 1 || line > static_cast<int>(lines.size())) return false;
  std::string_view l = lines[static_cast<std::size_t>(line - 1)];
  std::size_t hash = l.find(" #");
  return hash != std::string_view::npos && !trim(l.substr(hash + 2)).empty();
}

void undocumentedScopes(const LocatedMap& scopes, const FileLines& lines, const std::string& where,
                        std::vector<RuleHit>& out) {
  std::string names;
  std::vector<int> anchors;
  for (const auto& [scope, level] : scopes) {
    if ((scope == "contents" && level.text == "read") || documented(lines, level.line)) continue;
    names += (names.empty() ? "`" : ", `") + scope + ": " + level.text + "`";
    anchors.push_back(level.line);
  }
  if (!anchors.empty())
    out.push_back(
        {"security/undocumented-permissions", where + " grants " + names + " without a comment saying why.", anchors});
}

}  // namespace

void concurrencyLimitsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  constexpr std::string_view kRule = "security/concurrency-limits";
  if (w.isAction || reusableOnly(w)) return;
  if (bareGroup(w.concurrency)) {
    out.push_back(
        {kRule, "The workflow's `concurrency:` names a group but not `cancel-in-progress`.", {w.concurrency.line}});
    return;
  }
  if (w.concurrency.present()) return;
  std::vector<int> noGroup{w.onLine}, noCancel{w.onLine};
  for (const JobModel& j : w.jobs) {
    if (j.uses.present()) continue;  // a reusable workflow's caller: its own workflow decides
    if (!j.concurrency.present()) noGroup.push_back(j.line);
    if (bareGroup(j.concurrency)) noCancel.push_back(j.concurrency.line);
  }
  if (noCancel.size() > 1)
    out.push_back({kRule,
                   "The workflow sets no `concurrency:`, and a job's names a group but not `cancel-in-progress`.",
                   noCancel});
  if (noGroup.size() > 1)
    out.push_back(
        {kRule, "Neither the workflow nor its jobs set `concurrency:`: new runs do not cancel older ones.", noGroup});
}

void undocumentedPermissionsHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  undocumentedScopes(w.permissionScopes, lines, "The workflow", out);
  for (const JobModel& j : w.jobs) undocumentedScopes(j.permissionScopes, lines, "Job `" + j.id + "`", out);
}

}  // namespace lw::agents::security
