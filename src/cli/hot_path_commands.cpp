// Kept apart from commands.cpp: the `loopwright` executable links only what
// these commands reach, so that libgit2 is not loaded for them.
#include "cli/command.h"
#include "cli/commands.h"

namespace lw::cli {

std::vector<Command> hotPathCommands() {
  return {sandboxBackendsCommand(), sandboxExecCommand(), bridgeStdioCommand()};
}

}  // namespace lw::cli
