// Rules whose risk comes from how the workflow is triggered: privileged
// events that run the pull request's code, permissions, self-hosted runners,
// actor checks, and caches in what gets published.
#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <string>

#include "agents/security/text.h"
#include "agents/security/workflow/action_catalogue.h"
#include "agents/security/workflow/untrusted_context.h"
#include "agents/security/workflow/workflow_flow.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

const Located* firstTrigger(const WorkflowModel& w, std::initializer_list<std::string_view> events) {
  for (const Located& t : w.triggers)
    for (std::string_view e : events)
      if (t.text == e) return &t;
  return nullptr;
}

}  // namespace

// A checkout `ref:` that names the pull request's code rather than the base,
// with its contexts read in any form (`github.event['pull_request']['head']`).
bool refIsPullRequestHead(std::string_view ref) {
  std::string r = lowerCase(ref);
  for (const ContextRef& c : contextRefsIn(ref, "github")) r += " " + c.path;
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
  static constexpr std::array kCommands = {"npm publish",   "yarn publish",   "pnpm publish",   "twine upload",
                                           "cargo publish", "gem push",       "docker push",    "gh release create",
                                           "mvn deploy",    "gradle publish", "poetry publish", "goreleaser"};
  for (const char* c : kCommands)
    if (contains(s.run.text, c)) return true;
  // zizmor's cache-poisoning audit's list of publishing actions.
  static constexpr std::array kActions = {"pypa/gh-action-pypi-publish",
                                          "softprops/action-gh-release",
                                          "goreleaser/goreleaser-action",
                                          "rubygems/release-gem",
                                          "jreleaser/release-action",
                                          "release-drafter/release-drafter",
                                          "googleapis/release-please-action",
                                          "redhat-actions/push-to-registry",
                                          "aws-actions/amazon-ecs-deploy-task-definition",
                                          "aws-actions/aws-cloudformation-github-deploy",
                                          "azure/aci-deploy",
                                          "azure/container-apps-deploy-action",
                                          "azure/functions-action",
                                          "azure/sql-action",
                                          "cloudflare/wrangler-action",
                                          "google-github-actions/deploy-appengine",
                                          "google-github-actions/deploy-cloudrun",
                                          "google-github-actions/deploy-cloud-functions"};
  for (const char* a : kActions)
    if (usesAction(s, a)) return true;
  // build-push-action counts unless `push: false` (zizmor's reading: its
  // cache-to and outputs can publish without `push`).
  const Located* push = s.withValue("push");
  return usesAction(s, "docker/build-push-action") && (push == nullptr || lowerCase(push->text) != "false");
}

bool pushesReleaseBranch(const WorkflowModel& w) {
  for (const std::string& branch : w.pushBranches)
    if (contains(lowerCase(branch), "release")) return true;
  return false;
}

// What makes it a release workflow is a tag: a release event or a tag push
// (other branches pushed build no release, as zizmor's cache-poisoning reads it).
bool releasesOnlyTags(const WorkflowModel& w) {
  return (w.hasTrigger("release") || w.pushesTags) && !pushesReleaseBranch(w);
}

// A release event, a tag push, a push to a branch named for releases, or a
// publishing step.
bool isReleaseWorkflow(const WorkflowModel& w) {
  if (w.hasTrigger("release") || w.pushesTags || pushesReleaseBranch(w)) return true;
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      if (isPublishingStep(s)) return true;
  return false;
}

// GitHub-hosted runners' labels (docs.github.com, "GitHub-hosted runners"
// and "larger runners"), and the hosted services poutine also accepts.
bool isHostedLabel(std::string_view label) {
  static const std::regex kHosted(
      "(ubuntu-(latest|slim|[0-9]{2}\\.04)(-arm|-(4|8|16|32|64)-cores)?|"
      "macos-(latest|[0-9]{2})(-large|-xlarge|-arm64)?|windows-(latest|20[0-9]{2}|11-arm)(-(8|16|32|64)-cores)?|"
      "(buildjet|warp)-[a-z0-9-]+)",
      std::regex::icase);
  return std::regex_match(label.begin(), label.end(), kHosted);
}

// `self-hosted`, or a label no GitHub-hosted runner has (as poutine and
// zizmor's self-hosted-runner audit read it); an expression is not a label.
bool isSelfHostedLabel(std::string_view label) {
  if (label.empty() || label.find("${{") != std::string_view::npos) return false;
  return lowerCase(label) == "self-hosted" || !isHostedLabel(label);
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

void checkoutByScriptHits(const WorkflowModel& w, const FileLines& lines, const Located& trigger,
                          std::vector<RuleHit>& out) {
  for (const JobModel& j : w.jobs)
    for (std::size_t i = 0; i < j.steps.size(); ++i) {
      const StepModel& s = j.steps[i];
      if (!s.run.present()) continue;
      std::vector<std::string_view> script = splitLines(s.run.text);
      int at = scriptCheckoutLine(script);
      if (at < 0 || (!scriptRunsAfter(script, at) && firstExecutionAfter(j, i) == nullptr)) continue;
      int line = valueLineNumbers(lines, s.run.line, script)[static_cast<std::size_t>(at)];
      out.push_back(
          {"security/untrusted-checkout",
           "On `" + trigger.text + "`, job `" + j.id + "` checks out the pull request in a script and then runs it.",
           {line, trigger.line}});
    }
}

// The user ids of the bots such conditions name (GitHub's users API,
// https://api.github.com/users/<login>): dependabot[bot], renovate[bot],
// dependabot-preview[bot], github-actions[bot]; and 29110, the Dependabot
// app's id, which conditions also compare with.
constexpr std::array kBotIds = {"49699333", "29139614", "27856297", "41898282", "29110"};

bool endsOperand(char c) { return std::string_view(" \t(){}&|,=!<>").find(c) != std::string_view::npos; }

// The operand right of `at`: a '…' literal (with '' inside), or a run of
// characters up to a space or an operator.
std::string_view operandAfter(std::string_view e, std::size_t at) {
  while (at < e.size() && e[at] == ' ') ++at;
  std::size_t end = at;
  if (end < e.size() && e[end] == '\'') {
    for (++end; end < e.size(); ++end) {
      if (e[end] != '\'') continue;
      if (end + 1 < e.size() && e[end + 1] == '\'') {
        ++end;  // '' is a quote inside the literal
        continue;
      }
      break;
    }
    return e.substr(at, std::min(end + 1, e.size()) - at);
  }
  while (end < e.size() && !endsOperand(e[end])) ++end;
  return e.substr(at, end - at);
}

// The operand left of `at` (the same, read backwards; a literal from its
// closing quote back to the quote before it).
std::string_view operandBefore(std::string_view e, std::size_t at) {
  while (at > 0 && e[at - 1] == ' ') --at;
  std::size_t start = at;
  if (start > 0 && e[start - 1] == '\'') {
    std::size_t open = start >= 2 ? e.rfind('\'', start - 2) : std::string_view::npos;
    return open == std::string_view::npos ? std::string_view{} : e.substr(open, at - open);
  }
  while (start > 0 && !endsOperand(e[start - 1])) --start;
  return e.substr(start, at - start);
}

// A literal operand's value, lower case: 'text' unquoted, or a number.
std::string literalValue(std::string_view operand) {
  if (operand.size() >= 2 && operand.front() == '\'' && operand.back() == '\'')
    operand = operand.substr(1, operand.size() - 2);
  return lowerCase(operand);
}

// Whether `ref` compared with `literal` trusts the actor to be a bot: the
// actor's name against a `…[bot]` login, or its id against a bot's id.
bool comparesActorWithBot(std::string_view ref, std::string_view literal) {
  std::vector<ContextRef> refs = contextRefsIn(ref, "github");
  if (refs.size() != 1 || refs.front().text.size() != trim(ref).size()) return false;
  const std::string& path = refs.front().path;
  std::string value = literalValue(literal);
  if (path == "github.actor" || path == "github.triggering_actor") return value.ends_with("[bot]");
  if (path == "github.actor_id" || path == "github.triggering_actor_id")
    return std::find(kBotIds.begin(), kBotIds.end(), value) != kBotIds.end();
  return false;
}

// A condition that compares the actor (whoever caused the latest event,
// written in any case or index form) with a bot's login or user id, either
// way round.
bool trustsActorAsBot(std::string_view cond) {
  for (std::size_t at = cond.find("=="); at != std::string_view::npos; at = cond.find("==", at + 2)) {
    std::string_view left = operandBefore(cond, at), right = operandAfter(cond, at + 2);
    if (comparesActorWithBot(left, right) || comparesActorWithBot(right, left)) return true;
  }
  return false;
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
      out.push_back(
          {"security/write-all-permissions", "Job `" + j.id + "`'s token gets `write-all`.", {j.permissions.line}});
  const Located* risky =
      firstTrigger(w, {"pull_request_target", "workflow_run", "issue_comment", "issues", "pull_request_review",
                       "pull_request_review_comment", "discussion", "discussion_comment"});
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
  const Located* pr =
      firstTrigger(w, {"pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment"});
  if (pr == nullptr) return;
  for (const JobModel& j : w.jobs) {
    std::string why;
    int line = 0;
    for (const Located& written : j.runsOn)
      for (const Located& label : possibleValues(written, j))
        if (why.empty() && isSelfHostedLabel(label.text)) {
          why = lowerCase(label.text) == "self-hosted" ? "a self-hosted runner"
                                                       : "`" + label.text + "`, not a GitHub-hosted runner's label";
          line = label.line;
        }
    if (why.empty() && j.runnerGroup.present()) {
      why = "runner group `" + j.runnerGroup.text + "`, which may hold self-hosted runners";
      line = j.runnerGroup.line;
    }
    if (!why.empty())
      out.push_back(
          {"security/self-hosted-pr", "Job `" + j.id + "` runs `" + pr->text + "` on " + why + ".", {line, pr->line}});
  }
}

void botActorConditionHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  auto check = [&](const Located& cond) {
    if (cond.present() && trustsActorAsBot(cond.text))
      out.push_back(
          {"security/bot-actor-condition", "This `if:` trusts the actor's name to identify a bot.", {cond.line}});
  };
  for (const JobModel& j : w.jobs) {
    check(j.ifCond);
    for (const StepModel& s : j.steps) check(s.ifCond);
  }
}

void cacheInReleaseHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  if (!isReleaseWorkflow(w)) return;
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      if (const Located* at = cacheTurnedOn(s, lines, releasesOnlyTags(w)))
        out.push_back({"security/cache-in-release",
                       "`" + s.uses.text + "` restores a cache in a release workflow.",
                       {at->line, s.uses.line}});
}

}  // namespace lw::agents::security
