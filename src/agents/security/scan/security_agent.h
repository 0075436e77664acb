// builtin/security: deterministic rules on the pull request's added lines
// (secrets, GitHub Actions risks, downloads piped to a shell, new
// dependencies; docs/security-rules.md). No model.
#pragma once

#include <string>

#include "agents/agent.h"

namespace lw::agents {

// Reads the diff and the files the rules need through the bridge, writes
// findings.json; 0 when it scanned, 1 when a bridge call or the out dir
// failed (the reason in the log, and an empty findings.json where it can).
// The event payload is LOOPWRIGHT_EVENT's file (for the repository's owner).
int runSecurityAgent(AgentContext& ctx);

// The same with the event payload's path given (empty: none).
int runSecurityAgentWithEvent(AgentContext& ctx, const std::string& eventPath);

}  // namespace lw::agents
