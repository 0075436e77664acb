// Rules on what an AI agent may do once steered: modes that turn off its
// permission prompts or sandbox, a shell it may use for anything, and MCP
// servers handed secrets. Each matters when outsiders can put text in front
// of the agent (agent_rule_support.h's outsiderTrigger), so each runs only
// on such workflows.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "agents/security/workflow/agent_catalogue.h"
#include "agents/security/workflow/shell_flow.h"
#include "agents/security/workflow_rules/agent_rule_support.h"
#include "agents/security/workflow_rules/workflow_rules.h"

namespace lw::agents::security {

namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// Values of an input that turn a safeguard off, lower case. Sources: Claude
// Code's CLI (--dangerously-skip-permissions, --permission-mode
// bypassPermissions, passed through claude_args, claude_env or settings'
// permissions.defaultMode); codex-action's action.yml (sandbox
// danger-full-access, safety-strategy unsafe) and codex exec's flags passed
// through codex-args; Gemini CLI's yolo approval mode in settings.
// `approval_policy never` is not here: it is codex exec's own default when
// it runs headless, so it says nothing the action does not already do.
struct DangerousValue {
  AgentInput role;
  std::string_view needle;
  bool whole;  // the value is exactly the needle (an enum input)
  std::string_view meaning;
};
constexpr std::array kDangerous = {
    DangerousValue{AgentInput::CliArgs, "--dangerously-skip-permissions", false, "every tool runs without asking"},
    DangerousValue{AgentInput::AgentEnv, "--dangerously-skip-permissions", false, "every tool runs without asking"},
    DangerousValue{AgentInput::CliArgs, "bypasspermissions", false, "every tool runs without asking"},
    DangerousValue{AgentInput::Settings, "bypasspermissions", false, "every tool runs without asking"},
    DangerousValue{AgentInput::Sandbox, "danger-full-access", true, "the agent runs outside its sandbox"},
    DangerousValue{AgentInput::CliArgs, "danger-full-access", false, "the agent runs outside its sandbox"},
    DangerousValue{AgentInput::CliArgs, "--dangerously-bypass-approvals-and-sandbox", false,
                   "no sandbox and no approvals"},
    DangerousValue{AgentInput::CliArgs, "--yolo", false, "no sandbox and no approvals"},
    DangerousValue{AgentInput::SafetyStrategy, "unsafe", true,
                   "the agent keeps the runner user's sudo and can read its API key from memory"},
    DangerousValue{AgentInput::Settings, "\"yolo\"", false, "every tool runs without asking"},
};

// The file line of the value line of `v` that holds `needle` (lower case).
int lineOfNeedle(const Located& v, std::string_view needle, const FileLines& lines) {
  std::vector<std::string_view> valueLines = splitLines(v.text);
  std::vector<int> at = valueLineNumbers(lines, v.line, valueLines);
  for (std::size_t i = 0; i < valueLines.size(); ++i)
    if (containsText(lowerCase(valueLines[i]), needle)) return at[i];
  return v.line;
}

// Whether a tool list (lower case) allows `tool` without a command pattern:
// `Bash`, `Bash(*)`, `Bash(:*)`, but not `Bash(git diff:*)`.
bool allowsWholeTool(std::string_view list, std::string_view tool) {
  for (std::size_t at = list.find(tool); at != std::string_view::npos; at = list.find(tool, at + 1)) {
    if (at > 0 && isWordChar(list[at - 1])) continue;
    std::size_t end = at + tool.size();
    if (end < list.size() && isWordChar(list[end])) continue;
    if (end >= list.size() || list[end] != '(') return true;
    std::size_t close = list.find(')', end);
    std::string_view pattern = trim(list.substr(end + 1, close == std::string_view::npos ? 0 : close - end - 1));
    if (pattern.empty() || pattern == "*" || pattern == ":*") return true;
  }
  return false;
}

// Where the flag that starts at `from` ends: at the next `--` that opens a
// word (after a space or a line break), or at the end.
std::size_t nextFlag(std::string_view lower, std::size_t from) {
  for (std::size_t at = lower.find("--", from); at != std::string_view::npos; at = lower.find("--", at + 2))
    if (at > 0 && (lower[at - 1] == ' ' || lower[at - 1] == '\n' || lower[at - 1] == '"')) return at;
  return lower.size();
}

// The parts of a text that are allow lists: what follows `--allowedTools` /
// `--allowed-tools` up to the next flag, or a settings' `"allow": [ … ]`.
std::vector<std::string_view> allowLists(std::string_view lower) {
  std::vector<std::string_view> out;
  for (std::string_view flag : {"--allowedtools", "--allowed-tools"})
    for (std::size_t at = lower.find(flag); at != std::string_view::npos; at = lower.find(flag, at + 1)) {
      std::size_t start = at + flag.size();
      out.push_back(lower.substr(start, nextFlag(lower, start) - start));
    }
  for (std::size_t at = lower.find("\"allow\""); at != std::string_view::npos; at = lower.find("\"allow\"", at + 1))
    out.push_back(lower.substr(at, lower.find(']', at) - at));
  return out;
}

// Why a step's agent may run any shell command ("" when it may not), and
// the line that says so.
struct ShellGrant {
  std::string why;
  int line = 0;
};

ShellGrant claudeShell(const StepModel& s, const AgentAction& a, const FileLines& lines) {
  for (const auto& [name, v] : agentInputs(s, a, AgentInput::AllowedTools))
    if (allowsWholeTool(lowerCase(v->text), "bash"))
      return {"`" + std::string(name) + "` allows `Bash` with any command", lineOfNeedle(*v, "bash", lines)};
  for (AgentInput role : {AgentInput::CliArgs, AgentInput::Settings})
    for (const auto& [name, v] : agentInputs(s, a, role)) {
      std::string lower = lowerCase(v->text);
      for (std::string_view list : allowLists(lower))
        if (allowsWholeTool(list, "bash"))
          return {"`" + std::string(name) + "` allows `Bash` with any command", lineOfNeedle(*v, "bash", lines)};
    }
  return {};
}

// run-gemini-cli runs every tool without asking, so its settings' tool
// allowlist (`tools.core`, `coreTools` before Gemini CLI's settings v2) is
// the only limit; without one, or with the shell tool unrestricted in it,
// the agent has a shell.
ShellGrant geminiShell(const StepModel& s, const AgentAction& a, const FileLines& lines) {
  auto settings = agentInputs(s, a, AgentInput::Settings);
  const Located* v = settings.empty() ? nullptr : settings.front().second;
  std::string text = v == nullptr ? "" : lowerCase(v->text);
  if (allowsWholeTool(text, "run_shell_command"))
    return {"`settings` allows `run_shell_command` with any command", lineOfNeedle(*v, "run_shell_command", lines)};
  bool allowlist = containsText(text, "\"core\"") || containsText(text, "\"coretools\"");
  bool shellExcluded = containsText(text, "exclude") && containsText(text, "run_shell_command");
  if (allowlist || shellExcluded) return {};
  return {"`settings` has no tool allowlist (`tools.core`), and the action runs every tool without asking",
          v == nullptr ? s.uses.line : v->line};
}

// The secrets an MCP configuration is given: `${{ secrets.X }}` in it, or
// `$NAME` of an `env:` entry (step, job, workflow) set from a secret. Each
// with the needle to find its line by.
std::vector<std::pair<std::string, std::string>> mcpSecrets(const Located& config, const WorkflowModel& w,
                                                            const JobModel& j, const StepModel& s) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& name : namedSecrets(config.text)) out.emplace_back("`secrets." + name + "`", lowerCase(name));
  const std::vector<std::string> read = shellVariablesIn(config.text);
  for (const LocatedMap* env : {&s.env, &j.env, &w.env})
    for (const auto& [var, value] : *env) {
      std::vector<std::string> secrets = namedSecrets(value.text);
      if (!secrets.empty() && std::ranges::find(read, var) != read.end())
        out.emplace_back("`$" + var + "` (from `secrets." + secrets.front() + "`)", lowerCase(var));
    }
  return out;
}

bool isMcpConfig(AgentInput role, std::string_view lower) {
  if (role == AgentInput::McpConfig) return true;
  if (role == AgentInput::Settings) return containsText(lower, "mcpservers");
  return containsText(lower, "mcp");  // claude_args --mcp-config, codex-args -c mcp_servers.…
}

template <class F>
void forEachAgentStepOnOutsiderEvents(const WorkflowModel& w, F&& f) {
  if (outsiderTrigger(w.triggers) == nullptr) return;
  for (const JobModel& j : w.jobs)
    for (const StepModel& s : j.steps)
      if (const AgentAction* a = agentActionOf(s)) f(j, s, *a);
}

}  // namespace

void agentDangerousModeHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachAgentStepOnOutsiderEvents(w, [&](const JobModel&, const StepModel& s, const AgentAction& a) {
    std::vector<const Located*> reported;  // one finding per input, for its first dangerous value
    for (const DangerousValue& d : kDangerous)
      for (const auto& [name, v] : agentInputs(s, a, d.role)) {
        std::string value = lowerCase(trim(v->text));
        if (d.whole ? value != d.needle : !containsText(value, d.needle)) continue;
        if (std::find(reported.begin(), reported.end(), v) != reported.end()) continue;
        reported.push_back(v);
        out.push_back({"security/agent-dangerous-mode",
                       "`" + std::string(name) + "` of `" + s.uses.text + "` sets `" + std::string(trim(d.needle)) +
                           "`: " + std::string(d.meaning) + ", on an event outsiders can cause.",
                       {lineOfNeedle(*v, d.needle, lines), s.uses.line}});
      }
  });
}

void agentUnrestrictedShellHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachAgentStepOnOutsiderEvents(w, [&](const JobModel&, const StepModel& s, const AgentAction& a) {
    ShellGrant shell = a.approvesEveryTool ? geminiShell(s, a, lines) : claudeShell(s, a, lines);
    if (shell.why.empty()) return;
    out.push_back(
        {"security/agent-unrestricted-shell", "`" + s.uses.text + "`: " + shell.why + ".", {shell.line, s.uses.line}});
  });
}

void agentMcpSecretHits(const WorkflowModel& w, const FileLines& lines, std::vector<RuleHit>& out) {
  forEachAgentStepOnOutsiderEvents(w, [&](const JobModel& j, const StepModel& s, const AgentAction& a) {
    for (AgentInput role : {AgentInput::McpConfig, AgentInput::Settings, AgentInput::CliArgs})
      for (const auto& [name, v] : agentInputs(s, a, role)) {
        if (!isMcpConfig(role, lowerCase(v->text))) continue;
        for (const auto& [what, needle] : mcpSecrets(*v, w, j, s))
          out.push_back({"security/agent-mcp-secret",
                         "An MCP server configured in `" + std::string(name) + "` of `" + s.uses.text + "` is given " +
                             what + ".",
                         {lineOfNeedle(*v, needle, lines), v->line, s.uses.line}});
      }
  });
}

}  // namespace lw::agents::security
