// What starting a step's executable needs: which file argv[0] names, argv
// and envp laid out for execve, and the error every start reports.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace lw::sandbox::process {

// argv[0] as given when it holds a slash; otherwise the first executable
// regular file of that name in the PATH of `env` (the step's environment,
// not ours: it decides what the step runs), or nullopt.
std::optional<std::string> resolveExecutable(const std::string& name,
                                             const std::map<std::string, std::string>& env);

// SANDBOX_LAUNCH_FAILED: "`what` failed: strerror(err)", about `subject`.
Error launchError(const std::string& what, int err, const std::string& subject);

// argv or envp for execve: the strings and the null-terminated pointer
// array into them, allocated before any fork (the child only reads them).
class ExecStrings {
 public:
  explicit ExecStrings(std::vector<std::string> strings);
  // "NAME=value" for each variable, in the map's order.
  static ExecStrings environment(const std::map<std::string, std::string>& env);
  char* const* get() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
};

}  // namespace lw::sandbox::process
