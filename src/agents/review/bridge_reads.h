// What builtin/review reads through its bridge before it asks the model:
// the pull request, its changed files and diff, and the repository's review
// instructions at the base commit.
#pragma once

#include <optional>
#include <string>

#include "agents/agent.h"
#include "agents/review/pull_inputs.h"

namespace lw::agents::review {

// True for the errors that stop the step at once: a guardrail refused the
// call (BREAKER_OPEN, LOOP_DETECTED, BUDGET_EXCEEDED); later calls would be
// refused too.
bool isGuardrailStop(const Error& e);

struct PullRequestInputs {
  PullInfo pull;
  PullFiles files;
  PullDiff diff;
};

// github.pull, github.pulls.files and github.pulls.diff. The tool's error
// (its code kept) or OUTPUT_INVALID for an answer out of contract.
Result<PullRequestInputs> readPullRequest(BridgeClient& bridge);

struct Instructions {
  std::string source;  // the path they came from
  std::string text;    // the review sections, bounded (instructions.h)
};

// `preferred` at the base commit, else AGENTS.md, else CLAUDE.md; nullopt
// when none exists. Any other error is returned (a guardrail stop, a tool
// that failed): the caller decides whether to go on without them.
Result<std::optional<Instructions>> readInstructions(BridgeClient& bridge, const std::string& preferred);

}  // namespace lw::agents::review
