// builtin/review (`loopwright agent review`): a model reviews the pull
// request's diff, file by file within the step's token budget, and the
// validated findings go to findings.json, what was covered to coverage.json
// (docs/builtin-steps.md).
#pragma once

#include "agents/agent.h"
#include "agents/review/prompt.h"

namespace lw::agents::review {

// Returns 0 when the review ran, complete or partial (coverage.json says
// which and why); 1 when it could not: the pull request could not be read,
// or a guardrail stopped the model (breaker open) — then the findings so far
// and coverage.json with `complete: false` are still written, so that the
// step fails and the pipeline records the BLOCKER with the reason.
int reviewPullRequest(AgentContext& ctx, const RandomBits& random);

}  // namespace lw::agents::review

namespace lw::agents {

// The AgentMain of builtin/review: reviewPullRequest with fence tokens
// drawn from std::random_device.
int runReviewAgent(AgentContext& ctx);

}  // namespace lw::agents
