// The isolation levels (README, "Isolation levels"): what separates a step
// from the orchestrator and the GitHub token it holds. isolationOf() in
// vocabulary.h gives each backend's level; this says what a level means and
// whether this version of loopwright can give it at all.
#pragma once

#include <string>
#include <string_view>

#include "policy/model/vocabulary.h"

namespace lw {

// In words, for messages: "remote: another kernel per step".
std::string_view isolationMeaning(Isolation level);

// "L3 (remote: another kernel per step)".
std::string describeLevel(Isolation level);

// What this version lacks to give `level`, in words ("a remote backend (…)
// is not available in this version"); empty when some backend gives it.
std::string isolationMissing(Isolation level);

}  // namespace lw
