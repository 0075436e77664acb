// What a step's sandbox runs: a `run:` step its own argv; a built-in step
// (`uses: builtin/<name>`) `loopwright-engine agent <name> --params <json>`,
// the engine made visible read-only for that step only, so that no other
// step pays for a bind it does not use.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "policy/model/taskpack.h"
#include "sandbox/backend.h"

namespace lw::pipeline {

struct StepCommand {
  std::vector<std::string> argv;
  std::vector<std::filesystem::path> readOnlyPaths;  // besides the event and `selfExe`
};

// Whether a host path is a regular file: the one thing stepCommand asks of
// the host, injected so that planning stays pure.
using IsRegularFile = std::function<bool(const std::filesystem::path&)>;

// `selfExe` is the `loopwright` the steps see (RunContext::selfExe); the
// engine is looked for beside it. SANDBOX_LAUNCH_FAILED for a built-in on a
// backend whose steps do not see host files (`traits.hostFilesVisible`
// false: a container image has no loopwright; validation refuses the
// taskpacks that could get there), naming `backendName`, or when no engine
// is installed.
Result<StepCommand> stepCommand(const Step& step, const std::filesystem::path& selfExe,
                                const sandbox::BackendTraits& traits, std::string_view backendName,
                                const IsRegularFile& isRegularFile);

}  // namespace lw::pipeline
