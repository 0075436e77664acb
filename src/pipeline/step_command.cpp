#include "pipeline/step_command.h"

#include <boost/json/serialize.hpp>

#include "core/executables.h"
#include "policy/builtin_params.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

// The engine beside `selfExe` (the installation's layout, core/executables.h),
// else `selfExe` itself when it is the engine or a single build of both.
fs::path engineBeside(const fs::path& selfExe) {
  std::error_code ec;
  fs::path engine = selfExe.parent_path() / kEngineExecutable;
  if (fs::is_regular_file(engine, ec)) return engine;
  if (selfExe.filename() != kFrontExecutable && fs::is_regular_file(selfExe, ec)) return selfExe;
  return {};
}

}  // namespace

Result<StepCommand> stepCommand(const Step& step, const fs::path& selfExe, bool container) {
  if (!step.uses) return StepCommand{step.run, {}};
  const std::string name(builtinName(step));
  if (container)
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "'" + *step.uses + "' cannot run on docker: the container does not see loopwright",
                     "give the step sandbox: {preferredBackends: [linux-bwrap, linux-landlock]}", step.name);
  fs::path engine = engineBeside(selfExe);
  if (engine.empty())
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "'" + *step.uses + "' needs " + std::string(kEngineExecutable) + " beside " +
                         selfExe.string() + ", and there is none",
                     "install loopwright and loopwright-engine side by side in one directory", step.name);
  StepCommand command;
  command.argv = {engine.string(), "agent", name, "--params", boost::json::serialize(step.params)};
  if (engine != selfExe) command.readOnlyPaths.push_back(engine);
  return command;
}

}  // namespace lw::pipeline
