// How `loopwright` passes a command it does not run itself to the engine.
#pragma once

#include <iosfwd>

#include "core/environment.h"

namespace lw::cli {

// Replaces this process with loopwright-engine from the same directory, with
// the same arguments (argv[0] kept). Returns only when that fails: then the
// error is reported and the exit status (70) returned.
int execEngine(char** argv, std::ostream& out, std::ostream& err, const Environment& env);

}  // namespace lw::cli
