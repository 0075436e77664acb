// security/archived-action: a `uses:` of an action or reusable workflow whose
// repository is archived on GitHub. An archived repository takes no commits:
// a vulnerability found in it, or in what it bundles, is never fixed there.
// The list is agents/security/workflow/archived_repositories.h; offline, the
// rule knows only the repositories it names.
#include <string>
#include <string_view>

#include "agents/security/workflow/archived_repositories.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

void checkUses(const Located& uses, std::vector<RuleHit>& out) {
  if (!uses.present()) return;
  std::string repository = usesRepository(uses.text);
  if (repository.empty() || !isArchivedRepository(repository)) return;
  out.push_back(
      {"security/archived-action",
       "`" + uses.text.substr(0, uses.text.find('@')) + "` comes from `" + repository + "`, an archived repository.",
       {uses.line}});
}

}  // namespace

void archivedActionHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs) {
    checkUses(j.uses, out);
    for (const StepModel& s : j.steps) checkUses(s.uses, out);
  }
}

}  // namespace lw::agents::security
