// Which file a step's argv[0] names.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace lw::sandbox::process {

// argv[0] as given when it holds a slash; otherwise the first executable
// regular file of that name in the PATH of `env` (the step's environment,
// not ours: it decides what the step runs), or nullopt.
std::optional<std::string> resolveExecutable(const std::string& name,
                                             const std::map<std::string, std::string>& env);

}  // namespace lw::sandbox::process
