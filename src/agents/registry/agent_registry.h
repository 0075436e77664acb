// Which main runs `uses: builtin/<name>` (`loopwright agent <name>`). One
// table, so that the policy catalogue (policy/builtin/builtin_catalog.h) and the
// agents that exist can be compared in one place.
#pragma once

#include <string_view>
#include <vector>

#include "agents/agent.h"
#include "core/result.h"

namespace lw::agents {

struct RegisteredAgent {
  std::string_view name;  // as in builtin/<name>
  AgentMain main = nullptr;
};

// Every agent this build has, in catalogue order.
const std::vector<RegisteredAgent>& registeredAgents();

// The main of `name`; USAGE_ERROR naming the agents there are when this
// build has none of that name.
Result<AgentMain> findAgent(std::string_view name);

}  // namespace lw::agents
