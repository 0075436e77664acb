// security/dangerous-trigger: every `pull_request_target` and `workflow_run`
// trigger, whatever the jobs do with it. The exploitable shapes have their
// own error and warning rules (untrusted-checkout, missing-permissions,
// expression-injection); this notice asks a reviewer to look at a trigger
// that hands a write token and secrets to a run an outsider starts.
#include <string>

#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

constexpr std::string_view kRule = "security/dangerous-trigger";

// One job of one step that only runs actions/labeler: the documented use of
// pull_request_target, which reads no code of the pull request (zizmor's
// exception, which covers that trigger only).
bool onlyLabels(const WorkflowModel& w) {
  if (w.jobs.size() != 1) return false;
  const JobModel& j = w.jobs.front();
  return !j.uses.present() && j.steps.size() == 1 && usesAction(j.steps.front(), "actions/labeler");
}

}  // namespace

void dangerousTriggerHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  if (w.isAction) return;
  for (const Located& t : w.triggers) {
    if (t.text == "pull_request_target" && !onlyLabels(w))
      out.push_back({kRule,
                     "The workflow runs on `pull_request_target`: with the base repository's write token and "
                     "secrets, on a pull request anyone can open.",
                     {t.line, w.onLine}});
    else if (t.text == "workflow_run")
      out.push_back({kRule,
                     "The workflow runs on `workflow_run`: with the repository's write token and secrets, after a "
                     "workflow a pull request (and so an outsider) can start.",
                     {t.line, w.onLine}});
  }
}

}  // namespace lw::agents::security
