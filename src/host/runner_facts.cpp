// Whether this is a GitHub Actions runner, an ephemeral one, and whether its
// job hooks run loopwright (host_facts.h).
#include <cstdio>
#include <filesystem>

#include <boost/json.hpp>

#include "host/host_facts.h"
#include "host/runner_dotenv.h"

namespace lw::host {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// The runner (.NET) writes .runner with a UTF-8 byte order mark.
std::string_view withoutBom(std::string_view s) { return s.rfind("\xEF\xBB\xBF", 0) == 0 ? s.substr(3) : s; }

std::optional<bool> ephemeralFlag(const std::string& runnerFile) {
  boost::system::error_code ec;
  json::value v = json::parse(withoutBom(runnerFile), ec);
  if (ec || !v.is_object()) return std::nullopt;
  for (const auto& [k, val] : v.as_object()) {
    std::string key(k);
    if ((key == "ephemeral" || key == "isEphemeral" || key == "Ephemeral") && val.is_bool()) return val.as_bool();
  }
  return false;  // the runner omits the key unless --ephemeral was given
}

bool namesLoopwright(const std::optional<std::string>& script) {
  if (!script || script->empty()) return false;
  if (script->find("loopwright") != std::string::npos) return true;
  std::error_code ec;
  // A script written by install-hooks lives anywhere; look inside (bounded).
  if (!fs::is_regular_file(*script, ec) || fs::file_size(*script, ec) > 64 * 1024) return false;
  std::FILE* f = std::fopen(script->c_str(), "r");
  if (f == nullptr) return false;
  std::string text(64 * 1024, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  return text.find("loopwright") != std::string::npos && text.find("runner hook") != std::string::npos;
}

}  // namespace

RunnerFacts classifyRunner(const Environment& env, const std::string& runnerDir,
                           const std::optional<std::string>& runnerFile, const std::optional<std::string>& dotEnv) {
  RunnerFacts r;
  r.actions = env.isTrue("GITHUB_ACTIONS");
  r.environment = env.get("RUNNER_ENVIRONMENT").value_or("");
  r.name = env.get("RUNNER_NAME").value_or("");
  r.runnerDir = runnerDir;
  if (runnerFile) {
    r.ephemeral = ephemeralFlag(*runnerFile);
    r.ephemeralSource = r.ephemeral ? runnerDir + "/.runner" : runnerDir + "/.runner (unreadable JSON)";
  }
  if (!r.ephemeral && r.environment == "github-hosted") {
    r.ephemeral = true;
    r.ephemeralSource = "RUNNER_ENVIRONMENT=github-hosted (a fresh VM per job)";
  }
  if (!r.ephemeral && !runnerFile)
    r.ephemeralSource = "no .runner file found and RUNNER_ENVIRONMENT is not github-hosted";

  std::optional<std::string> started = env.get(std::string(kHookStartedKey));
  std::optional<std::string> completed = env.get(std::string(kHookCompletedKey));
  r.hooksSource = "environment";
  if (dotEnv && (!started || !completed)) {
    started = started ? started : dotEnvValue(*dotEnv, kHookStartedKey);
    completed = completed ? completed : dotEnvValue(*dotEnv, kHookCompletedKey);
    r.hooksSource = runnerDir + "/.env";
  }
  r.hooksInstalled = namesLoopwright(started) && namesLoopwright(completed);
  if (!started && !completed) r.hooksSource = "not configured";
  return r;
}

std::string findRunnerDir(const Environment& env, const std::string& explicitDir) {
  if (!explicitDir.empty()) return explicitDir;
  std::error_code ec;
  std::vector<std::string> starts;
  for (const char* v : {"RUNNER_TEMP", "RUNNER_WORKSPACE"})
    if (auto p = env.get(v); p && !p->empty()) starts.push_back(*p);
  starts.push_back(fs::current_path(ec).string());
  for (const std::string& s : starts) {
    for (fs::path p = fs::path(s).lexically_normal(); !p.empty(); p = p.parent_path()) {
      if (fs::exists(p / ".runner", ec)) return p.string();
      if (p == p.root_path()) break;
    }
  }
  return "";
}

}  // namespace lw::host
