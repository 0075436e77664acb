// A subcommand of `loopwright`: its words ("sandbox exec"), its options, and
// the function that runs it. Every subcommand gets --help and --json.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/args.h"
#include "core/environment.h"

namespace lw::cli {

struct Io {
  std::ostream& out;
  std::ostream& err;
  const Environment& env;
  bool json = false;
};

struct Command {
  std::string name;     // one or more words: "validate", "sandbox exec"
  std::string summary;  // one line for the command list
  std::string usage;    // the synopsis after "loopwright <name>"
  std::string description;
  std::vector<OptionSpec> options;
  std::size_t maxPositionals = 0;
  bool takesCommand = false;  // words after "--" are a command to run
  // Returns the process exit status (see exit_codes.h).
  std::function<int(const Args&, Io&)> run;
};

// Every subcommand, in the order `loopwright --help` lists them.
std::vector<Command> allCommands();

// The subcommands the `loopwright` executable runs itself (see core/executables.h).
std::vector<Command> hotPathCommands();

}  // namespace lw::cli
