// security/self-hosted-runner (auditor): every job that may run on a
// self-hosted runner, whatever its triggers: a `self-hosted` label, a runner
// group, a label computed by an expression, or `${{ matrix.<key> }}` whose
// written-out values include `self-hosted`. security/self-hosted-pr is the
// default rule for the pull request case.
#include <string>

#include "agents/security/workflow/workflow_flow.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

constexpr std::string_view kRule = "security/self-hosted-runner";

// "os" for `${{ matrix.os }}` (spaces allowed), else empty.
std::string matrixKeyOf(std::string_view value) {
  std::string_view t = trim(value);
  if (!t.starts_with("${{") || !t.ends_with("}}")) return {};
  std::string_view inner = trim(t.substr(3, t.size() - 5));
  if (!inner.starts_with("matrix.")) return {};
  std::string_view key = inner.substr(7);
  return key.find_first_of(" .[(") == std::string_view::npos ? std::string(key) : std::string();
}

bool mentionsSelfHosted(const std::vector<Located>& values) {
  for (const Located& v : values)
    if (lowerCase(v.text).find("self-hosted") != std::string::npos) return true;
  return false;
}

void jobHit(const JobModel& j, std::vector<RuleHit>& out) {
  const Located& runsOn = j.runsOnWhole;
  std::string who = "Job `" + j.id + "` ";
  if (runsOn.text == "{}") {
    out.push_back({kRule, who + "runs on a runner group, which holds self-hosted runners.", {runsOn.line}});
  } else if (runsOn.text != "[]" && !matrixKeyOf(runsOn.text).empty()) {
    std::string key = matrixKeyOf(runsOn.text);
    if (!j.runsOn.empty() && mentionsSelfHosted(possibleValues(j.runsOn.front(), j)))
      out.push_back({kRule, who + "runs on `matrix." + key + "`, which includes a self-hosted runner.", {runsOn.line}});
  } else if (!j.runsOn.empty() && lowerCase(j.runsOn.front().text) == "self-hosted") {
    out.push_back({kRule, who + "runs on a self-hosted runner.", {runsOn.line}});
  } else if (runsOn.text == "[]" && !j.runsOn.empty() && trim(j.runsOn.front().text).starts_with("${{")) {
    out.push_back(
        {kRule, who + "runs on a label an expression computes, which may be a self-hosted runner.", {runsOn.line}});
  }
}

}  // namespace

void selfHostedRunnerHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    if (j.runsOnWhole.present()) jobHit(j, out);
}

}  // namespace lw::agents::security
