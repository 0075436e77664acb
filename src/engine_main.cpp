// `loopwright-engine`: every subcommand; `loopwright` execs it for all but
// the hot-path ones. Wiring only.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/dispatch.h"
#include "core/environment.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return lw::cli::dispatch(args, lw::cli::allCommands(), std::cout, std::cerr, lw::Environment::fromProcess());
}
