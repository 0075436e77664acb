#include "agents/registry/agent_registry.h"

#include <string>

// Each agent adds its header here and one entry to the table below.
#include "agents/lint/lint_agent.h"
#include "agents/reproduce/reproduce_agent.h"
#include "agents/review/review_agent.h"
#include "agents/security/scan/security_agent.h"
#include "agents/triage/triage_agent.h"

namespace lw::agents {

const std::vector<RegisteredAgent>& registeredAgents() {
  // One agent a line, so that adding one is one line of diff.
  // clang-format off
  static const std::vector<RegisteredAgent> all = {
      {"lint", runLintAgent},
      {"reproduce", runReproduceAgent},
      {"review", runReviewAgent},
      {"security", runSecurityAgent},
      {"triage", runTriageAgent},
  };
  // clang-format on
  return all;
}

Result<AgentMain> findAgent(std::string_view name) {
  std::string known;
  for (const RegisteredAgent& a : registeredAgents()) {
    if (a.name == name) return a.main;
    known += (known.empty() ? "" : ", ") + std::string(a.name);
  }
  return makeError(ErrorCode::UsageError, "this loopwright has no built-in agent '" + std::string(name) + "'",
                   known.empty() ? "this build has no built-in agents; see docs/builtin-steps.md"
                                 : "built-in agents here: " + known + " (docs/builtin-steps.md)",
                   std::string(name));
}

}  // namespace lw::agents
