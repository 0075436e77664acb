// Rules on code and images that come from elsewhere: actions and reusable
// workflows pinned to a commit, images pinned to a digest, secrets handed to
// other owners, and the token left behind by actions/checkout.
#include <algorithm>
#include <cctype>
#include <string>

#include "agents/security/text.h"
#include "agents/security/workflow/workflow_flow.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

// `./path` is read from the workspace and `$/path` from this repository at
// the workflow's own commit (GitHub's self-repository syntax, 2026-07); only
// other repositories' code and images can move under the workflow.
bool isRemote(std::string_view uses) {
  return !uses.empty() && !uses.starts_with("./") && !uses.starts_with("$/") && !uses.starts_with("docker://");
}

// A `uses:` written as a block scalar (`uses: |`) ends in a newline that
// GitHub ignores.
Located trimmed(const Located& uses) { return {std::string(trim(uses.text)), uses.line}; }

std::string ownerOf(std::string_view uses) { return lowerCase(uses.substr(0, uses.find('/'))); }

// GitHub's own actions carry a lower severity: GitHub already runs the
// platform they run on, so trusting their tags adds less (docs/security-rules.md).
void checkPinned(const Located& written, std::vector<RuleHit>& out) {
  Located uses = trimmed(written);
  if (!isRemote(uses.text) || uses.text.find("${{") != std::string::npos) return;
  std::size_t at = uses.text.find('@');
  std::string_view ref = at == std::string::npos ? std::string_view{} : std::string_view(uses.text).substr(at + 1);
  if (isFullCommitSha(ref)) return;
  std::string owner = ownerOf(uses.text);
  bool github = owner == "actions" || owner == "github";
  std::string detail = "`" + uses.text + "` is pinned to ";
  if (ref.empty())
    detail += "no ref";
  else
    detail.append("`").append(ref).append("`");
  out.push_back({github ? "security/unpinned-github-action" : "security/unpinned-action",
                 detail + ", not a commit SHA.",
                 {uses.line}});
}

void checkImage(const Located& written, std::vector<RuleHit>& out) {
  Located image = trimmed(written);
  std::string_view name = image.text;
  if (name.starts_with("docker://")) name.remove_prefix(9);
  if (!image.present() || name.empty() || name.find("${{") != std::string_view::npos) return;
  if (name.find("@sha256:") != std::string_view::npos) return;
  out.push_back(
      {"security/unpinned-image", "Image `" + std::string(name) + "` is not pinned to a digest.", {image.line}});
}

}  // namespace

void unpinnedActionHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs) {
    checkPinned(j.uses, out);
    for (const StepModel& s : j.steps) checkPinned(s.uses, out);
  }
}

// `./path` names whatever the workspace holds at that path when the step
// runs (an earlier step may have checked out or written other code there);
// `$/path` is this repository at the workflow's own commit (zizmor's
// self-repository audit).
void workspaceRelativeUsesHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  auto check = [&](const Located& uses) {
    std::string_view written = trim(uses.text);
    if (!written.starts_with("./")) return;
    out.push_back({"security/workspace-relative-uses",
                   "`" + std::string(written) +
                       "` runs what the workspace holds at that path, not necessarily this "
                       "repository's file: write `$/" +
                       std::string(written.substr(2)) + "`.",
                   {uses.line}});
  };
  for (const JobModel& j : w.jobs) {
    check(j.uses);
    for (const StepModel& s : j.steps) check(s.uses);
  }
}

void unpinnedImageHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  if (w.actionImage.text.starts_with("docker://")) checkImage(w.actionImage, out);
  for (const JobModel& j : w.jobs) {
    for (const Located& written : j.images)
      for (const Located& image : possibleValues(written, j)) checkImage(image, out);
    for (const StepModel& s : j.steps)
      if (s.uses.text.starts_with("docker://")) checkImage(s.uses, out);
  }
}

void secretsInheritHits(const WorkflowModel& w, std::string_view repositoryOwner, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs) {
    if (j.secrets.text != "inherit" || !isRemote(trim(j.uses.text))) continue;
    // Without the repository's owner, every remote workflow counts as another owner's.
    if (!repositoryOwner.empty() && ownerOf(j.uses.text) == lowerCase(repositoryOwner)) continue;
    out.push_back({"security/secrets-inherit",
                   "Job `" + j.id + "` passes every secret to `" + j.uses.text + "`.",
                   {j.secrets.line, j.uses.line}});
  }
}

// A checkout that keeps the token, in a job that uploads an artifact (the
// token can leave in it: a warning), or in any other job (a notice, zizmor's
// low-confidence artipacked finding: a later step may still publish it).
void persistCredentialsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs) {
    auto upload = std::find_if(j.steps.begin(), j.steps.end(),
                               [](const StepModel& s) { return usesAction(s, "actions/upload-artifact"); });
    for (const StepModel& s : j.steps) {
      if (!usesAction(s, "actions/checkout")) continue;
      const Located* persist = s.withValue("persist-credentials");
      if (persist != nullptr && lowerCase(trim(persist->text)) == "false") continue;
      if (upload == j.steps.end())
        out.push_back(
            {"security/checkout-persists-token",
             "Job `" + j.id + "` keeps the checkout's token in the workspace (no `persist-credentials: false`).",
             {s.uses.line}});
      else
        out.push_back({"security/persist-credentials",
                       "Job `" + j.id + "` keeps the checkout's token and uploads an artifact (line " +
                           std::to_string(upload->line) + ").",
                       {s.uses.line, upload->line}});
    }
  }
}

}  // namespace lw::agents::security
