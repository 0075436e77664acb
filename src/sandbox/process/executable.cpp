#include "sandbox/process/executable.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace lw::sandbox::process {
namespace {

bool isExecutableFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> resolveExecutable(const std::string& name,
                                             const std::map<std::string, std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  auto it = env.find("PATH");
  std::string path = it != env.end() ? it->second : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string dir = path.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (isExecutableFile(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
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
  for (const auto& [k, v] : env) vars.push_back(k + "=" + v);
  return ExecStrings(std::move(vars));
}

}  // namespace lw::sandbox::process
