#include "sandbox/step_env.h"

#include <cstring>

namespace lw::sandbox {

std::map<std::string, std::string> stepEnvironment(const Environment& host,
                                                   const std::map<std::string, std::string>& set) {
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : host.all()) {
    bool allowed = name.rfind("LC_", 0) == 0;
    for (const char* a : kStepEnvAllowList) allowed = allowed || name == a;
    if (allowed) env[name] = value;
  }
  if (env.find("PATH") == env.end()) env["PATH"] = kDefaultStepPath;
  for (const auto& [name, value] : set) env[name] = value;
  return env;
}

}  // namespace lw::sandbox
