#include "sandbox/process/executable.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sandbox/process/step_env.h"

namespace lw::sandbox::process {
namespace {

bool isExecutableFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> findHelper(const std::string& name, const std::optional<std::string>& pathVariable) {
  for (const std::string& candidate : commandCandidates(name, pathVariable.value_or("/usr/local/bin:/usr/bin:/bin"))) {
    if (candidate[0] == '/' && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

std::vector<std::string> commandCandidates(const std::string& name, const std::string& pathVariable) {
  if (name.find('/') != std::string::npos) return {name};
  if (name.empty()) return {};
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= pathVariable.size()) {
    std::size_t end = pathVariable.find(':', start);
    if (end == std::string::npos) end = pathVariable.size();
    std::string dir = pathVariable.substr(start, end - start);
    if (dir.empty()) dir = ".";  // POSIX: an empty entry is the working directory
    out.push_back(dir + "/" + name);
    start = end + 1;
  }
  return out;
}

std::optional<std::string> resolveCommand(const std::string& name, const std::string& pathVariable,
                                          const RunnableInView& runnable) {
  for (const std::string& candidate : commandCandidates(name, pathVariable)) {
    if (runnable(candidate)) return candidate;
  }
  return std::nullopt;
}

std::string stepPathOf(const std::map<std::string, std::string>& env) {
  auto it = env.find("PATH");
  return it != env.end() ? it->second : kDefaultStepPath;
}

Error commandNotFound(const std::string& name, const std::string& pathVariable, int err) {
  std::string why =
      err == EACCES ? "none of its candidates may be executed by the step" : "it is on no entry of the step's PATH";
  return makeError(ErrorCode::SandboxLaunchFailed,
                   "command '" + name + "' not found in the step's view (" + why + "; PATH=" + pathVariable + ")",
                   "the step searches its own PATH and sees only its sandbox's view (the system "
                   "paths, the workspace, the read-only paths): name a command inside that view by "
                   "its absolute path, or set PATH in the step's environment",
                   name);
}

std::optional<std::string> resolveExecutable(const std::string& name, const std::map<std::string, std::string>& env) {
  if (name.find('/') != std::string::npos) return name;  // its exec reports what is wrong
  return resolveCommand(name, stepPathOf(env), isExecutableFile);
}

Error launchError(const std::string& what, int err, const std::string& subject) {
  return makeError(ErrorCode::SandboxLaunchFailed, what + " failed: " + std::strerror(err), "", subject);
}

ExecStrings::ExecStrings(std::vector<std::string> strings) : strings_(std::move(strings)) {
  for (auto& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

ExecStrings ExecStrings::environment(const std::map<std::string, std::string>& env) {
  std::vector<std::string> vars;
  vars.reserve(env.size());
  for (const auto& [k, v] : env) vars.push_back(k + "=" + v);
  return ExecStrings(std::move(vars));
}

}  // namespace lw::sandbox::process
