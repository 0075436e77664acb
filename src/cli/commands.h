// One factory per subcommand, each defined in its own cmd_*.cpp.
#pragma once

#include "cli/command.h"

namespace lw::cli {

}  // namespace lw::cli
