// The git-style dispatcher: finds the subcommand named by the leading words of
// argv, parses its options, runs it, and turns anything thrown into exit 70.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"

namespace lw::cli {

// The command whose words begin argv (the longest such name), or null.
const Command* findCommand(const std::vector<std::string>& argv, const std::vector<Command>& commands);

// argv excludes the program name. Returns the process exit status.
int dispatch(const std::vector<std::string>& argv, const std::vector<Command>& commands, std::ostream& out,
             std::ostream& err, const Environment& env);

}  // namespace lw::cli
