#include "cli/commands.h"
#include "cli/command.h"

namespace lw::cli {

std::vector<Command> allCommands() {
  return {
      validateCommand(),
      explainCommand(),
      runCommand(),
      evalCommand(),
      evalImportCommand(),
      sandboxBackendsCommand(),
      sandboxExecCommand(),
      publishCommand(),
      verifySnapshotCommand(),
      verifyCheckCommand(),
      bridgeStdioCommand(),
      agentCommand(),
      qualifyCommand(),
      runnerJobStartedCommand(),
      runnerJobCompletedCommand(),
      runnerInstallHooksCommand(),
      leaseClaimCommand(),
      leaseRenewCommand(),
      leaseReleaseCommand(),
      leaseListCommand(),
  };
}

}  // namespace lw::cli
