// The GitHub Actions that run an AI agent, and what each of their inputs
// does, as the action's own documentation says (the source of each entry is
// in agent_catalogue.cpp and docs/security-rules.md). The agent rules read
// inputs by what they do, so a new action, or a renamed input, is one entry.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "agents/security/workflow/workflow_model.h"

namespace lw::agents::security {

// What an input of an agent action is for.
enum class AgentInput {
  Prompt,          // text the model reads as its instructions
  PromptFile,      // a path whose content is the prompt
  CliArgs,         // arguments passed to the agent's command line
  Settings,        // a JSON settings document (permissions, tools, MCP servers)
  McpConfig,       // an MCP server configuration (JSON)
  AgentEnv,        // the agent's environment, as text
  AllowedTools,    // a tool allowlist
  NonWriteUsers,   // users let past the action's write-access check ("*": anyone)
  AllowedBots,     // bots let past it ("*": any bot or GitHub App)
  Sandbox,         // the agent's sandbox mode
  SafetyStrategy,  // how the agent's privileges on the runner are reduced
  GithubToken,     // the token the agent acts with
};

struct AgentInputName {
  std::string_view name;  // as written under `with:`
  AgentInput role;
};

struct AgentAction {
  std::string_view uses;  // owner/repo (or owner/repo/path), lower case
  // Whether the action itself refuses actors without write access to the
  // repository unless an input (NonWriteUsers, AllowedBots) lets them in.
  bool checksWriteAccess = false;
  // Whether the agent runs every tool it is given without asking
  // (run-gemini-cli always passes --yolo), so the tool allowlist in its
  // settings is the only limit.
  bool approvesEveryTool = false;
  std::vector<AgentInputName> inputs;
};

// Every agent action known, in no particular order.
const std::vector<AgentAction>& agentActions();

// The agent action a step uses, or nullptr.
const AgentAction* agentActionOf(const StepModel& s);

// The step's `with:` values of inputs that have `role`, each with its input's name.
std::vector<std::pair<std::string_view, const Located*>> agentInputs(const StepModel& s, const AgentAction& a,
                                                                     AgentInput role);

}  // namespace lw::agents::security
