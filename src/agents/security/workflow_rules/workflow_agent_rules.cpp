// Rules on who and what steers an AI agent run by a workflow step
// (agent_catalogue.h names the actions and their inputs): event text spliced
// into its prompt, outsiders let in while it holds a write token, and the pull
// request's files checked out where it reads its instructions.
#include <optional>
#include <string>

#include "agents/security/workflow/agent_catalogue.h"
#include "agents/security/workflow/shell_flow.h"
#include "agents/security/workflow_rules/agent_rule_support.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

template <class F>
void forEachAgentStep(const WorkflowModel& w, F&& f) {
  for (const JobModel& j : w.jobs)
    for (std::size_t i = 0; i < j.steps.size(); ++i)
      if (const AgentAction* a = agentActionOf(j.steps[i])) f(j, i, *a);
}

// "${{ runner.temp }}/prompt.md" -> "prompt.md": what a script that writes
// the file names, however it spells the directory.
std::string_view fileNameOf(std::string_view path) {
  path = trim(path);
  while (!path.empty() && (path.back() == '"' || path.back() == '\'')) path.remove_suffix(1);
  std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool writesFile(std::string_view line, std::string_view name) {
  return !name.empty() && containsText(line, name) && (containsText(line, ">") || containsText(line, "tee "));
}

// A run: step before the agent that writes its prompt file from event text.
void promptFileHits(const WorkflowModel& w, const JobModel& j, std::size_t agent, const Located& promptFile,
                    const FileLines& lines, std::vector<RuleHit>& out) {
  std::string_view name = fileNameOf(promptFile.text);
  for (std::size_t i = 0; i < agent; ++i) {
    const StepModel& s = j.steps[i];
    if (!s.run.present()) continue;
    std::vector<std::string_view> script = splitLines(s.run.text);
    bool writes = false;
    for (std::string_view l : script) writes = writes || writesFile(l, name);
    std::optional<ScriptLine> tainted = writes ? firstOutsiderLine(s, {w, &j, &s}) : std::nullopt;
    if (!tainted) continue;
    int line = valueLineNumbers(lines, s.run.line, script)[tainted->line];
    out.push_back({"security/agent-prompt-injection",
                   "This step writes event text into `" + std::string(name) + "`, which `" + j.steps[agent].uses.text +
                       "` reads as its prompt (`prompt-file`, line " + std::to_string(promptFile.line) + ").",
                   {line, promptFile.line}});
  }
}

// An author check the action makes itself, opened by an input: the input's
// name and value, or nullopt when the check stands.
using NamedInput = std::pair<std::string_view, const Located*>;
std::optional<NamedInput> openedCheck(const std::vector<NamedInput>& users, const std::vector<NamedInput>& bots) {
  for (const NamedInput& u : users)
    if (!trim(u.second->text).empty()) return u;
  for (const NamedInput& b : bots)
    if (trim(b.second->text) == "*") return b;
  return std::nullopt;
}

// A github_token input that is not the run's own token: a personal access
// token or an App's, whose scopes `permissions:` does not limit.
const Located* foreignToken(const StepModel& s, const AgentAction& a) {
  for (const auto& [name, value] : agentInputs(s, a, AgentInput::GithubToken)) {
    std::string v = lowerCase(value->text);
    if (!containsText(v, "secrets.github_token") && !containsText(v, "github.token")) return value;
  }
  return nullptr;
}

std::string actorDetail(const JobModel& j, const StepModel& s, const Located& trigger, std::string_view opened,
                        const std::string& grant) {
  std::string who = opened.empty() ? "does not check the author (no `author_association` test in `if:`)"
                                   : "lets users without write access in (`" + std::string(opened) + "`)";
  return "On `" + trigger.text + "`, job `" + j.id + "` runs `" + s.uses.text + "` with " + grant + " and " + who + ".";
}

}  // namespace

void agentPromptInjectionHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachAgentStep(w, [&](const JobModel& j, std::size_t i, const AgentAction& a) {
    const StepModel& s = j.steps[i];
    for (const auto& [name, value] : agentInputs(s, a, AgentInput::Prompt))
      forEachOutsiderText(value->text, value->line, lines, {w, &j, &s}, [&](const std::string& via, int line) {
        out.push_back({"security/agent-prompt-injection",
                       via + " is spliced into `" + std::string(name) + "` of `" + s.uses.text + "`.",
                       {line, value->line}});
      });
    for (const auto& [name, value] : agentInputs(s, a, AgentInput::PromptFile))
      promptFileHits(w, j, i, *value, lines, out);
  });
}

void agentUntrustedActorHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  const Located* trigger = outsiderTrigger(w.triggers);
  if (trigger == nullptr) return;
  forEachAgentStep(w, [&](const JobModel& j, std::size_t i, const AgentAction& a) {
    const StepModel& s = j.steps[i];
    auto opened = openedCheck(agentInputs(s, a, AgentInput::NonWriteUsers), agentInputs(s, a, AgentInput::AllowedBots));
    if (a.checksWriteAccess && !opened) return;
    if (!a.checksWriteAccess && (checksAuthorAssociation(j.ifCond) || checksAuthorAssociation(s.ifCond))) return;
    std::optional<WriteGrant> grant = jobWriteGrant(w, j);
    const Located* token = opened ? foreignToken(s, a) : nullptr;
    if (token != nullptr) grant = WriteGrant{"a token `permissions:` does not limit (`github_token`)", token->line};
    if (!grant) return;
    std::vector<int> anchors;
    if (opened) anchors.push_back(opened->second->line);
    anchors.insert(anchors.end(), {s.uses.line, grant->line, trigger->line});
    out.push_back({"security/agent-untrusted-actor",
                   actorDetail(j, s, *trigger, opened ? opened->first : std::string_view{}, grant->what), anchors});
  });
}

void agentUntrustedCheckoutHits(const WorkflowModel& w, std::vector<RuleHit>& out) {
  const Located* trigger = outsiderTrigger(w.triggers);
  if (trigger == nullptr) return;
  for (const JobModel& j : w.jobs)
    for (std::size_t i = 0; i < j.steps.size(); ++i) {
      const StepModel& s = j.steps[i];
      const Located* ref = s.withValue("ref");
      const Located* path = s.withValue("path");
      bool root = path == nullptr || trim(path->text).empty() || trim(path->text) == ".";
      bool head = ref != nullptr && (refIsPullRequestHead(ref->text) || containsText(lowerCase(ref->text), "head_sha"));
      if (!usesAction(s, "actions/checkout") || !head || !root) continue;
      for (std::size_t k = i + 1; k < j.steps.size(); ++k) {
        if (agentActionOf(j.steps[k]) == nullptr) continue;
        out.push_back({"security/agent-untrusted-checkout",
                       "On `" + trigger->text + "`, job `" + j.id + "` checks out `" + ref->text +
                           "` into the workspace, then runs `" + j.steps[k].uses.text + "` there (line " +
                           std::to_string(j.steps[k].uses.line) + ").",
                       {ref->line, s.uses.line, j.steps[k].uses.line, trigger->line}});
        break;
      }
    }
}

}  // namespace lw::agents::security
