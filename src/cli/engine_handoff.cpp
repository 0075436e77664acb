#include "cli/engine_handoff.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "cli/command.h"
#include "cli/error_report.h"
#include "core/executables.h"

namespace lw::cli {

int execEngine(char** argv, std::ostream& out, std::ostream& err, const Environment& env) {
  const std::filesystem::path engine = siblingExecutable(kEngineExecutable);
  if (!engine.empty()) ::execv(engine.c_str(), argv);
  const int saved = errno;
  bool json = false;
  for (char** a = argv + 1; *a != nullptr && std::strcmp(*a, "--") != 0; ++a)
    json = json || std::strcmp(*a, "--json") == 0;
  Io io{out, err, env, json};
  return reportError(io, makeError(ErrorCode::Internal,
                                   "cannot run " + (engine.empty() ? std::string(kEngineExecutable) : engine.string()) +
                                       ": " + std::strerror(saved),
                                   "install loopwright and loopwright-engine side by side "
                                   "in one directory"));
}

}  // namespace lw::cli
