#include "cli/command.h"
#include "cli/commands.h"

namespace lw::cli {

std::vector<Command> allCommands() {
  return {
  };
}

}  // namespace lw::cli
