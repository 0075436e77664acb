#include "cli/command.h"
#include "cli/commands.h"

namespace lw::cli {

std::vector<Command> allCommands() {
  return {
      validateCommand(),
      explainCommand(),
      sandboxBackendsCommand(),
      sandboxExecCommand(),
      publishCommand(),
      verifySnapshotCommand(), verifyCheckCommand(),
      bridgeStdioCommand(),
  };
}

}  // namespace lw::cli
