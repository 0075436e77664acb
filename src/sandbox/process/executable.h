// What starting a step's executable needs: which file argv[0] names, argv
// and envp laid out for execve, and the error every start reports.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace lw::sandbox::process {

// The one rule by which every backend finds a step's command: a name that
// holds a slash is taken as given; otherwise, for each entry of the step's
// own PATH in order (an empty entry is the working directory), entry/name —
// the first of these the step can execute in its view wins. Neither the
// orchestrator's PATH nor its view of the filesystem takes part.
// A helper loopwright itself runs (bwrap, runsc), found on the host: the
// first absolute entry of `pathVariable` (default /usr/local/bin:/usr/bin:/bin)
// where `name` is executable; nullopt when none.
std::optional<std::string> findHelper(const std::string& name, const std::optional<std::string>& pathVariable);

std::vector<std::string> commandCandidates(const std::string& name, const std::string& pathVariable);

// Whether the step can execute `path` in its view (visible there, a regular
// file, executable by the step). The kernel answers it best: the supervisor
// tries each candidate with execve inside the sandbox, bubblewrap with execvp.
using RunnableInView = std::function<bool(const std::string& path)>;

// The first of commandCandidates() that is `runnable`, or nullopt.
std::optional<std::string> resolveCommand(const std::string& name, const std::string& pathVariable,
                                          const RunnableInView& runnable);

// PATH of `env`, or the default a step gets (step_env.h) when it has none.
std::string stepPathOf(const std::map<std::string, std::string>& env);

// SANDBOX_LAUNCH_FAILED for a command no candidate of which the step could
// execute (`err`: EACCES when one existed but was refused, else ENOENT).
Error commandNotFound(const std::string& name, const std::string& pathVariable, int err);

// A file of the orchestrator's own view (a launcher such as bwrap, never the
// step's command): a name with a slash as given, else resolveCommand against
// `env`'s PATH with a host stat()+access() as the test, or nullopt.
std::optional<std::string> resolveExecutable(const std::string& name, const std::map<std::string, std::string>& env);

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
