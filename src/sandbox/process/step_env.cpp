#include "sandbox/process/step_env.h"

#include <cstring>

namespace lw::sandbox {

std::optional<std::string> jobMarker(const Environment& host) {
  if (auto job = host.get(kJobMarkerVariable); job && !job->empty()) return job;
  auto run = host.get("GITHUB_RUN_ID");
  if (!run || run->empty()) return std::nullopt;
  return host.get("RUNNER_NAME").value_or("") + "/" + *run + "-" + host.get("GITHUB_RUN_ATTEMPT").value_or("1") + "/" +
         host.get("GITHUB_JOB").value_or("");
}

std::map<std::string, std::string> stepEnvironment(const Environment& host,
                                                   const std::map<std::string, std::string>& set) {
  std::map<std::string, std::string> env;
  for (const auto& [name, value] : host.all()) {
    bool allowed = name.rfind("LC_", 0) == 0;
    for (const char* a : kStepEnvAllowList) allowed = allowed || name == a;
    if (allowed) env[name] = value;
  }
  if (env.find("PATH") == env.end()) env["PATH"] = kDefaultStepPath;
  if (auto job = jobMarker(host)) env[kJobMarkerVariable] = *job;
  for (const auto& [name, value] : set) env[name] = value;
  return env;
}

}  // namespace lw::sandbox
