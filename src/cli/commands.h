// One factory per subcommand, each defined in its own cmd_*.cpp.
#pragma once

#include "cli/command.h"

namespace lw::cli {

Command validateCommand();
Command explainCommand();
Command runCommand();
Command evalCommand();
Command evalImportCommand();
Command sandboxBackendsCommand();
Command sandboxExecCommand();
Command publishCommand();
Command verifySnapshotCommand();
Command verifyCheckCommand();
Command bridgeStdioCommand();
Command agentCommand();
Command qualifyCommand();
Command runnerJobStartedCommand();
Command runnerJobCompletedCommand();
Command runnerInstallHooksCommand();
Command leaseClaimCommand();
Command leaseRenewCommand();
Command leaseReleaseCommand();
Command leaseListCommand();

}  // namespace lw::cli
