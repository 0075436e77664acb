// Which stages an event selects, with the comment commands folded in: an
// issue_comment that starts with `/loopwright review` runs the stages on
// `pull_request`, one with `/loopwright triage` the stages on `issues`, and
// only when the commenter has write access (docs/comment-commands.md). Any
// other comment selects the stages on `issue_comment`, as every event
// selects its own.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "core/environment.h"
#include "core/result.h"
#include "github/actions/comment_command.h"
#include "pipeline/run/run_setup.h"

namespace lw::cli {

struct StageSelection {
  std::string eventName;  // what the stages' `on:` is matched against
  std::string action;     // empty: any action of eventName
  // Not empty: no stage runs; this one line says why (log and step summary).
  std::string refusal;
};

// Pure: the selection for `event`. `permission` is the commenter's, read
// only when the event is a command comment.
StageSelection selectStages(const pipeline::EventInput& event, std::optional<github::CommentCommand> command,
                            const std::string& permission);

// The command `event` gives, if it is an issue_comment that gives one.
std::optional<github::CommentCommand> commandOf(const pipeline::EventInput& event);

// selectStages, with the commenter's permission read from the API (GET
// collaborators/{login}/permission, GITHUB_TOKEN) for a command comment.
// USAGE_ERROR without a token; the API's error otherwise.
Result<StageSelection> gateStages(const pipeline::EventInput& event, const Environment& env, std::ostream& log);

}  // namespace lw::cli
