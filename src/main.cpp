// `loopwright`: runs the hot-path commands itself and hands every other
// invocation (help and errors included) to loopwright-engine unchanged.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/dispatch.h"
#include "cli/engine_handoff.h"
#include "core/environment.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::vector<lw::cli::Command> commands = lw::cli::hotPathCommands();
  const lw::Environment env = lw::Environment::fromProcess();
  if (lw::cli::findCommand(args, commands) == nullptr) return lw::cli::execEngine(argv, std::cout, std::cerr, env);
  return lw::cli::dispatch(args, commands, std::cout, std::cerr, env);
}
