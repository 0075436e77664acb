#include "pipeline/step/step_command.h"

#include <boost/json/serialize.hpp>

#include "core/executables.h"
#include "policy/builtin/builtin_params.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

// The engine beside `selfExe` (the installation's layout, core/executables.h),
// else `selfExe` itself when it is the engine or a single build of both.
fs::path engineBeside(const fs::path& selfExe, const IsRegularFile& isRegularFile) {
  fs::path engine = selfExe.parent_path() / kEngineExecutable;
  if (isRegularFile(engine)) return engine;
  if (selfExe.filename() != kFrontExecutable && isRegularFile(selfExe)) return selfExe;
  return {};
}

}  // namespace

Result<StepCommand> stepCommand(const Step& step, const fs::path& selfExe, const sandbox::BackendTraits& traits,
                                std::string_view backendName, const IsRegularFile& isRegularFile) {
  if (!step.uses) return StepCommand{step.run, {}};
  const std::string name(builtinName(step));
  if (!traits.hostFilesVisible)
    return makeError(
        ErrorCode::SandboxLaunchFailed,
        "'" + *step.uses + "' cannot run on " + std::string(backendName) + ": the step there does not see loopwright",
        "give the step sandbox: {preferredBackends: [linux-bwrap, linux-landlock]}", step.name);
  fs::path engine = engineBeside(selfExe, isRegularFile);
  if (engine.empty())
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "'" + *step.uses + "' needs " + std::string(kEngineExecutable) + " beside " + selfExe.string() +
                         ", and there is none",
                     "install loopwright and loopwright-engine side by side in one directory", step.name);
  StepCommand command;
  command.argv = {engine.string(), "agent", name, "--params", boost::json::serialize(step.params)};
  if (engine != selfExe) command.readOnlyPaths.push_back(engine);
  return command;
}

}  // namespace lw::pipeline
