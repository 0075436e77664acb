// The environment a step starts with: an allow-list of harmless host
// variables (never a deny-list: secrets have unpredictable names) plus what
// the orchestrator sets for the step.
#pragma once

#include <map>
#include <string>

#include "core/environment.h"

namespace lw::sandbox {

// Host variables a step may inherit, by exact name; every LC_* is allowed too.
inline constexpr const char* kStepEnvAllowList[] = {"PATH", "LANG", "LANGUAGE", "TERM", "TZ",
                                                    "COLORTERM", "NO_COLOR"};

inline constexpr const char* kDefaultStepPath = "/usr/local/bin:/usr/bin:/bin";

// The allow-listed variables of `host`, PATH defaulted when missing, then
// `set` on top (LOOPWRIGHT_OUT, LOOPWRIGHT_BRIDGE, HOME, …).
std::map<std::string, std::string> stepEnvironment(const Environment& host,
                                                   const std::map<std::string, std::string>& set);

}  // namespace lw::sandbox
