// The GitHub Actions runner's `.env` file (KEY=VALUE per line, read by the
// runner at start), where job hooks are configured:
// ACTIONS_RUNNER_HOOK_JOB_STARTED / ACTIONS_RUNNER_HOOK_JOB_COMPLETED name a
// script each. Pure text functions; the file is written by cmd_runner.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace lw::host {

inline constexpr std::string_view kHookStartedKey = "ACTIONS_RUNNER_HOOK_JOB_STARTED";
inline constexpr std::string_view kHookCompletedKey = "ACTIONS_RUNNER_HOOK_JOB_COMPLETED";

// The value of the last `key=` line, nullopt when absent.
std::optional<std::string> dotEnvValue(std::string_view dotEnv, std::string_view key);

// `dotEnv` with both hook keys set to these scripts; other lines kept as they
// are. Idempotent (the same text when already set). A hook key set to another
// script fails with USAGE_ERROR naming it, unless `replace`.
Result<std::string> withHooks(std::string_view dotEnv, const std::string& startedScript,
                              const std::string& completedScript, bool replace);

// The hook script for `event` ("job-started"/"job-completed"): a bash script
// (the runner picks the shell by extension, .sh) that execs this binary.
std::string hookScript(const std::string& loopwrightBinary, const std::string& event);

}  // namespace lw::host
