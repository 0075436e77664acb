// builtin/reproduce: the reproducibility verifier of the triage pipeline.
// Finds the reproduction an issue gives (repro_extract.h), runs it in the
// step's own sandbox against the default branch or the ref it names
// (repro_run.h), and reports reproduced, not reproduced or could not run
// (repro_verdict.h) as triage.json: `reproducible`, a label and a comment.
#pragma once

#include "agents/agent.h"

namespace lw::agents {

// Reads the issue (github.issue) and writes triage.json. 0 when a verdict
// was written (could not run included: that is a result); 1 when the issue
// cannot be read or triage.json cannot be written; 2 on bad parameters.
int runReproduceAgent(AgentContext& ctx);

}  // namespace lw::agents
