// The environment a step starts with: an allow-list of harmless host
// variables (never a deny-list: secrets have unpredictable names) plus what
// the orchestrator sets for the step.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/environment.h"

namespace lw::sandbox {

// Host variables a step may inherit, by exact name; every LC_* is allowed too.
inline constexpr const char* kStepEnvAllowList[] = {"PATH", "LANG", "LANGUAGE", "TERM", "TZ", "COLORTERM", "NO_COLOR"};

inline constexpr const char* kDefaultStepPath = "/usr/local/bin:/usr/bin:/bin";

// Every step carries the CI job it belongs to in this variable, so that
// `loopwright runner hook job-completed` finds what the job left behind,
// daemons and containers included (src/host/job_cleanup.h).
inline constexpr const char* kJobMarkerVariable = "LOOPWRIGHT_JOB";

// $LOOPWRIGHT_JOB when set, else on a GitHub Actions runner
// "<RUNNER_NAME>/<GITHUB_RUN_ID>-<GITHUB_RUN_ATTEMPT>/<GITHUB_JOB>"; nullopt
// outside a job. The job hooks compute the same value from their environment.
std::optional<std::string> jobMarker(const Environment& host);

// The allow-listed variables of `host`, PATH defaulted when missing, the job
// marker when there is a job, then `set` on top (LOOPWRIGHT_OUT, LOOPWRIGHT_BRIDGE, HOME, …).
std::map<std::string, std::string> stepEnvironment(const Environment& host,
                                                   const std::map<std::string, std::string>& set);

}  // namespace lw::sandbox
