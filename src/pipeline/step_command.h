// What a step's sandbox runs: a `run:` step its own argv; a built-in step
// (`uses: builtin/<name>`) `loopwright-engine agent <name> --params <json>`,
// the engine made visible read-only for that step only, so that no other
// step pays for a bind it does not use.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"
#include "policy/taskpack.h"

namespace lw::pipeline {

struct StepCommand {
  std::vector<std::string> argv;
  std::vector<std::filesystem::path> readOnlyPaths;  // besides the event and `selfExe`
};

// `selfExe` is the `loopwright` the steps see (RunContext::selfExe); the
// engine is looked for beside it. SANDBOX_LAUNCH_FAILED for a built-in on a
// container backend (the image has no loopwright; validation refuses the
// taskpacks that could get there) or when no engine is installed.
Result<StepCommand> stepCommand(const Step& step, const std::filesystem::path& selfExe, bool container);

}  // namespace lw::pipeline
