#include "agents/security/workflow/agent_catalogue.h"

namespace lw::agents::security {

namespace {

using R = AgentInput;

// Sources (the inputs as each action's action.yml and docs name them):
// - anthropics/claude-code-action, its action.yml and claude-code-action/docs/security.md at
//   24dcd50c0568f0fc9e9211213a4fd2d9eb15c4e0 (v1: prompt, claude_args,
//   settings, allowed_non_write_users, allowed_bots, github_token; the action
//   checks the actor's write access itself), and action.yml at
//   9c7e1bac949439d391a133337eb0498238d1c2b4, the last v0 commit
//   (direct_prompt, override_prompt, custom_instructions, allowed_tools,
//   mcp_config, claude_env; still accepted by workflows pinned to v0/beta,
//   claude-code-action/docs/migration-guide.md).
// - base-action/action.yml of the same commits, also published as
//   anthropics/claude-code-base-action: no actor check (its README's "Trust
//   model"), prompt, prompt_file, claude_args, settings; v0 allowed_tools,
//   mcp_config, claude_env, system_prompt, append_system_prompt.
// - openai/codex-action, its action.yml and codex-action/docs/security.md at
//   9cdb6f3861cdefafeeaec70dfb42687be5ca62d3: prompt, prompt-file,
//   codex-args, sandbox, safety-strategy, allow-users, allow-bot-users; the
//   action checks write access unless allow-users lets others in.
// - google-github-actions/run-gemini-cli, action.yml at
//   3ca2577f2714990269a7378904cf70ae1e01e288: prompt, settings (written to
//   .gemini/settings.json); it runs `gemini --yolo` (action.yml lines 309 and
//   316) and checks no actor: run-gemini-cli/docs/trust-guidance.md leaves both to the
//   workflow.
const std::vector<AgentInputName> kClaudeBaseInputs = {{"prompt", R::Prompt},
                                                       {"prompt_file", R::PromptFile},
                                                       {"system_prompt", R::Prompt},
                                                       {"append_system_prompt", R::Prompt},
                                                       {"claude_args", R::CliArgs},
                                                       {"settings", R::Settings},
                                                       {"mcp_config", R::McpConfig},
                                                       {"claude_env", R::AgentEnv},
                                                       {"allowed_tools", R::AllowedTools}};

const std::vector<AgentAction> kAgentActions = {
    {"anthropics/claude-code-action",
     true,
     false,
     {{"prompt", R::Prompt},
      {"direct_prompt", R::Prompt},
      {"override_prompt", R::Prompt},
      {"custom_instructions", R::Prompt},
      {"claude_args", R::CliArgs},
      {"settings", R::Settings},
      {"mcp_config", R::McpConfig},
      {"claude_env", R::AgentEnv},
      {"allowed_tools", R::AllowedTools},
      {"allowed_non_write_users", R::NonWriteUsers},
      {"allowed_bots", R::AllowedBots},
      {"github_token", R::GithubToken}}},
    {"anthropics/claude-code-action/base-action", false, false, kClaudeBaseInputs},
    {"anthropics/claude-code-base-action", false, false, kClaudeBaseInputs},
    {"openai/codex-action",
     true,
     false,
     {{"prompt", R::Prompt},
      {"prompt-file", R::PromptFile},
      {"codex-args", R::CliArgs},
      {"sandbox", R::Sandbox},
      {"safety-strategy", R::SafetyStrategy},
      {"allow-users", R::NonWriteUsers},
      {"allow-bot-users", R::AllowedBots}}},
    {"google-github-actions/run-gemini-cli", false, true, {{"prompt", R::Prompt}, {"settings", R::Settings}}},
};

}  // namespace

const std::vector<AgentAction>& agentActions() { return kAgentActions; }

const AgentAction* agentActionOf(const StepModel& s) {
  if (!s.uses.present()) return nullptr;
  for (const AgentAction& a : kAgentActions)
    if (usesAction(s, a.uses)) return &a;
  return nullptr;
}

std::vector<std::pair<std::string_view, const Located*>> agentInputs(const StepModel& s, const AgentAction& a,
                                                                     AgentInput role) {
  std::vector<std::pair<std::string_view, const Located*>> out;
  for (const AgentInputName& in : a.inputs)
    if (in.role == role)
      if (const Located* v = s.withValue(in.name)) out.emplace_back(in.name, v);
  return out;
}

}  // namespace lw::agents::security
