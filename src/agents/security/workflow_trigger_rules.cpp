// Rules whose risk comes from how the workflow is triggered: privileged
// events that run the pull request's code, permissions, self-hosted runners,
// actor checks, and caches in what gets published.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "agents/security/text.h"
#include "agents/security/workflow_rules.h"

namespace lw::agents::security {

namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Events that run with the base repository's token and secrets while
// carrying an outsider's input.
bool isPrivileged(const WorkflowModel& w) { return w.hasTrigger("pull_request_target") || w.hasTrigger("workflow_run"); }

const Located* firstTrigger(const WorkflowModel& w, std::initializer_list<std::string_view> events) {
  for (const Located& t : w.triggers)
    for (std::string_view e : events)
      if (t.text == e) return &t;
  return nullptr;
}

}  // namespace

bool refIsPullRequestHead(std::string_view ref) {
  std::string r = lowerCase(ref);
  for (std::string_view p : {"pull_request.head.", "head_ref", "refs/pull/", "workflow_run.head_", "merge_commit_sha"})
    if (contains(r, p)) return true;
  return false;
}

namespace {

// A later step that builds or runs what was checked out: a script, or a
// local action (its code comes from the checkout).
const StepModel* firstExecutionAfter(const JobModel& j, std::size_t from) {
  for (std::size_t i = from + 1; i < j.steps.size(); ++i) {
    const StepModel& s = j.steps[i];
    if (s.run.present() || s.uses.text.starts_with("./")) return &s;
  }
  return nullptr;
}

bool isPublishingStep(const StepModel& s) {
  static constexpr std::array kCommands = {"npm publish", "yarn publish", "pnpm publish", "twine upload",
                                           "cargo publish", "gem push", "docker push", "gh release create",
                                           "mvn deploy", "gradle publish", "poetry publish", "goreleaser"};
  for (const char* c : kCommands)
    if (contains(s.run.text, c)) return true;
  static constexpr std::array kActions = {"pypa/gh-action-pypi-publish", "softprops/action-gh-release",
                                          "goreleaser/goreleaser-action"};
  for (const char* a : kActions)
    if (usesAction(s, a)) return true;
  const Located* push = s.withValue("push");
  return usesAction(s, "docker/build-push-action") && push != nullptr && push->text == "true";
}

bool isReleaseWorkflow(const WorkflowModel& w) {
  if (w.hasTrigger("release") || w.pushesTags) return true;
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      if (isPublishingStep(s)) return true;
  return false;
}

// actions/cache (or its restore half), or a setup-* action with its cache
// on: setup-go caches unless told not to (v4 and later).
const Located* cacheRestore(const StepModel& s) {
  if (usesAction(s, "actions/cache") || usesAction(s, "actions/cache/restore")) return &s.uses;
  const Located* cache = s.withValue("cache");
  bool off = cache != nullptr && (cache->text.empty() || cache->text == "false");
  if (usesAction(s, "actions/setup-go")) return off ? nullptr : (cache != nullptr ? cache : &s.uses);
  if (lowerCase(s.uses.text).starts_with("actions/setup-") && cache != nullptr && !off) return cache;
  return nullptr;
}

// The index of the line of a run: script that checks out the pull request
// with git or gh (`gh pr checkout`, `git fetch origin pull/N/head`), or -1.
int scriptCheckoutLine(const std::vector<std::string_view>& script) {
  for (std::size_t i = 0; i < script.size(); ++i) {
    std::string l = lowerCase(script[i]);
    bool git = contains(l, "git fetch") || contains(l, "git checkout") || contains(l, "git switch");
    if (contains(l, "gh pr checkout") || (git && (refIsPullRequestHead(l) || contains(l, "pull/"))))
      return static_cast<int>(i);
  }
  return -1;
}

// A script that checks the pull request out and goes on to run anything
// after it (a later line, or `&& make` on the same one).
bool scriptRunsAfter(const std::vector<std::string_view>& script, int at) {
  if (contains(script[static_cast<std::size_t>(at)], "&&")) return true;
  for (std::size_t i = static_cast<std::size_t>(at) + 1; i < script.size(); ++i) {
    std::string_view t = script[i];
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    if (!t.empty() && !t.starts_with("#")) return true;
  }
  return false;
}

void checkoutByScriptHits(const WorkflowModel& w, const FileLines& lines, const Located& trigger, std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (std::size_t i = 0; i < j.steps.size(); ++i) {
      const StepModel& s = j.steps[i];
      if (!s.run.present()) continue;
      std::vector<std::string_view> script = splitLines(s.run.text);
      int at = scriptCheckoutLine(script);
      if (at < 0 || (!scriptRunsAfter(script, at) && firstExecutionAfter(j, i) == nullptr)) continue;
      int line = valueLineNumbers(lines, s.run.line, script)[static_cast<std::size_t>(at)];
      out.push_back({"security/untrusted-checkout",
                     "On `" + trigger.text + "`, job `" + j.id + "` checks out the pull request in a script and then runs it.",
                     {line, trigger.line}});
    }
}

}  // namespace

void untrustedCheckoutHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  if (!isPrivileged(w)) return;
  const Located* trigger = firstTrigger(w, {"pull_request_target", "workflow_run"});
  for (const JobModel& j : w.jobs)
    for (std::size_t i = 0; i < j.steps.size(); ++i) {
      const StepModel& s = j.steps[i];
      const Located* ref = s.withValue("ref");
      if (!usesAction(s, "actions/checkout") || ref == nullptr || !refIsPullRequestHead(ref->text)) continue;
      const StepModel* exec = firstExecutionAfter(j, i);
      if (exec == nullptr) continue;
      out.push_back({"security/untrusted-checkout",
                     "On `" + trigger->text + "`, job `" + j.id + "` checks out `" + ref->text +
                         "` and then runs it (line " + std::to_string(exec->line) + ").",
                     {ref->line, s.uses.line, exec->line, trigger->line}});
    }
  checkoutByScriptHits(w, lines, *trigger, out);
}

void permissionsHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  if (w.permissions.text == "write-all")
    out.push_back({"security/write-all-permissions", "The workflow's token gets `write-all`.", {w.permissions.line}});
  for (const JobModel& j : w.jobs)
    if (j.permissions.text == "write-all")
      out.push_back({"security/write-all-permissions", "Job `" + j.id + "`'s token gets `write-all`.", {j.permissions.line}});
  const Located* risky = firstTrigger(w, {"pull_request_target", "workflow_run", "issue_comment", "issues",
                                          "pull_request_review", "pull_request_review_comment", "discussion",
                                          "discussion_comment"});
  if (risky == nullptr || w.permissions.present()) return;
  std::vector<int> anchors{risky->line};
  std::string jobs;
  for (const JobModel& j : w.jobs)
    if (!j.permissions.present()) {
      anchors.push_back(j.line);
      jobs += (jobs.empty() ? "`" : ", `") + j.id + "`";
    }
  if (jobs.empty()) return;
  out.push_back({"security/missing-permissions",
                 "On `" + risky->text + "`, no `permissions:` for the workflow or for job " + jobs + ".", anchors});
}

void selfHostedPullRequestHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  const Located* pr = firstTrigger(w, {"pull_request", "pull_request_target", "pull_request_review",
                                       "pull_request_review_comment"});
  if (pr == nullptr) return;
  for (const JobModel& j : w.jobs)
    for (const Located& label : j.runsOn)
      if (lowerCase(label.text) == "self-hosted")
        out.push_back({"security/self-hosted-pr", "Job `" + j.id + "` runs `" + pr->text + "` on a self-hosted runner.",
                       {label.line, pr->line}});
}

void botActorConditionHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  auto check = [&](const Located& cond) {
    std::string c = lowerCase(cond.text);
    bool actor = contains(c, "github.actor") || contains(c, "github.triggering_actor");
    if (cond.present() && actor && contains(c, "[bot]"))
      out.push_back({"security/bot-actor-condition", "This `if:` trusts the actor's name to identify a bot.", {cond.line}});
  };
  for (const JobModel& j : w.jobs) {
    check(j.ifCond);
    for (const StepModel& s : j.steps) check(s.ifCond);
  }
}

void cacheInReleaseHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  if (!isReleaseWorkflow(w)) return;
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      if (const Located* at = cacheRestore(s))
        out.push_back({"security/cache-in-release", "`" + s.uses.text + "` restores a cache in a release workflow.",
                       {at->line, s.uses.line}});
}

}  // namespace lw::agents::security
