// security/default-permissions and security/broad-permissions: tokens
// granted more than the jobs are shown to need, in the shapes zizmor's
// excessive-permissions audit reports in its default persona
// (crates/zizmor/src/audit/excessive_permissions.rs). `write-all` is
// security/write-all-permissions; a privileged trigger without any block is
// security/missing-permissions.
#include <algorithm>
#include <string>

#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

bool isReusableOnly(const WorkflowModel& w) { return w.triggers.size() == 1 && w.hasTrigger("workflow_call"); }

// Whether what the workflow itself grants reaches a job that sets nothing:
// with one job, or every job setting its own, or a workflow only others
// call (whose callers decide), the workflow's block is the jobs' business
// and zizmor reports it only in its pedantic persona.
bool workflowGrantReachesJobs(const WorkflowModel& w) {
  bool allJobsSetTheirOwn =
      std::all_of(w.jobs.begin(), w.jobs.end(), [](const JobModel& j) { return j.permissions.present(); });
  return w.jobs.size() > 1 && !allJobsSetTheirOwn && !isReusableOnly(w);
}

}  // namespace

void defaultPermissionsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  if (w.isAction || w.permissions.present()) return;
  constexpr std::string_view kRule = "security/default-permissions";
  if (workflowGrantReachesJobs(w))
    out.push_back({kRule,
                   "The workflow sets no `permissions:`: its jobs get the repository's default token.",
                   {w.onLine > 0 ? w.onLine : w.firstTriggerLine()}});
  for (const JobModel& j : w.jobs) {
    // A job of a workflow only others call runs with what its caller grants;
    // a job that calls a reusable workflow grants it this workflow's token.
    if (j.permissions.present() || (isReusableOnly(w) && !j.uses.present())) continue;
    out.push_back(
        {kRule, "Job `" + j.id + "` runs with the repository's default token (no `permissions:`).", {j.line}});
  }
}

void broadPermissionsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  if (w.isAction) return;
  constexpr std::string_view kRule = "security/broad-permissions";
  bool workflowLevel = workflowGrantReachesJobs(w);
  if (workflowLevel && w.permissions.text == "read-all")
    out.push_back({kRule, "The workflow's token can read every scope (`read-all`).", {w.permissions.line}});
  if (workflowLevel)
    for (const auto& [scope, level] : w.permissionScopes)
      if (level.text == "write")
        out.push_back({kRule,
                       "`" + scope + ": write` at the workflow level reaches every job that sets no `permissions:`.",
                       {level.line}});
  for (const JobModel& j : w.jobs)
    if (j.permissions.text == "read-all")
      out.push_back({kRule, "Job `" + j.id + "`'s token can read every scope (`read-all`).", {j.permissions.line}});
}

}  // namespace lw::agents::security
