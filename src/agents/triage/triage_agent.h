// builtin/triage: labels from the repository's own, likely duplicates, and
// missing information against the issue forms, for the event's issue.
#pragma once

#include "agents/agent.h"

namespace lw::agents {

// Reads the issue (github.issue), the labels (github.labels), candidates
// (github.issues.search), the forms from the workspace, and with useModel
// asks model.complete; writes triage.json. A failing optional source (labels,
// search, model) is logged and left out; 1 when the issue cannot be read or
// triage.json cannot be written, 2 on bad parameters.
int runTriageAgent(AgentContext& ctx);

}  // namespace lw::agents
