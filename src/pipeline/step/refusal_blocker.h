// The BLOCKER line of a step that negotiation refused, the same in
// `loopwright run` (the step's record) and `loopwright explain` (what a run
// would do): the step, the refusal's code and message (for a level no
// backend gives: the level and what is missing) and its hint as next action;
// and the next action of any BLOCKER of a step (its onStop).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "policy/model/taskpack.h"

namespace lw::pipeline {

// "BLOCKER: no sandbox backend gives step <step> what its policy requires
// (<CODE>): <message>. Last safe state: <lastSafeState>. Next action: <hint>."
// `nextAction`, when given (the step's onStop), replaces the hint.
std::string refusalBlocker(std::string_view step, const Error& refusal, std::string_view lastSafeState,
                           const std::optional<std::string>& nextAction = std::nullopt);

// The "Next action" of this step's BLOCKERs: its onStop when given, else
// `otherwise`. A null step (a record made without its taskpack) has none.
std::string nextActionFor(const Step& step, std::string_view otherwise);
std::string nextActionFor(const Step* step, std::string_view otherwise);

}  // namespace lw::pipeline
