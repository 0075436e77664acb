#include "pipeline/run/run_setup.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <ctime>

#include <boost/json/parse.hpp>

#include "core/file_io.h"
#include "core/paths.h"
#include "core/step_label.h"
#include "github/actions/github_event.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxEventBytes = 25u << 20;  // GitHub caps webhook payloads at 25 MB

}  // namespace

Result<EventInput> loadEventInput(const std::optional<std::string>& nameFlag,
                                  const std::optional<std::string>& pathFlag, const Environment& env) {
  EventInput in;
  std::optional<std::string> name = nameFlag, path = pathFlag;
  if (!name && env.isTrue("GITHUB_ACTIONS")) {
    name = env.get("GITHUB_EVENT_NAME");
    if (!path) path = env.get("GITHUB_EVENT_PATH");
  }
  if (!name || name->empty())
    return makeError(ErrorCode::UsageError, "no event to run on",
                     "give --event-name (e.g. pull_request.opened or workflow_dispatch), or run "
                     "under GitHub Actions");
  in.name = name->substr(0, name->find('.'));
  if (auto dot = name->find('.'); dot != std::string::npos) in.action = name->substr(dot + 1);
  in.payloadText = "{}";
  in.source = "(none)";
  if (path) {
    auto text = readBoundedFile(*path, kMaxEventBytes, ErrorCode::EventInvalid);
    if (!text) return text.error();
    auto event = github::parseEvent(in.name, *text, *path);
    if (!event) return event.error();
    if (in.action.empty()) in.action = event->action;
    in.baseSha = event->baseSha;
    in.typed = *event;
    in.payloadText = std::move(*text);
    in.source = *path;
  }
  boost::system::error_code ec;
  in.payload = boost::json::parse(in.payloadText, ec);
  if (ec) return makeError(ErrorCode::EventInvalid, "the event payload is not JSON", "", in.source);
  return in;
}

std::string makeRunId(const Environment& env) {
  auto id = env.get("GITHUB_RUN_ID");
  if (id && !id->empty()) {
    // The jobs of one workflow run (a matrix's legs too) share its id and
    // attempt, and on a self-hosted host they may share a state directory:
    // the job and this process make the publication theirs alone.
    std::string job;
    for (char c : env.get("GITHUB_JOB").value_or(""))
      job += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
    return *id + "-" + env.get("GITHUB_RUN_ATTEMPT").value_or("1") + (job.empty() ? "" : "-" + job) + "-" +
           std::to_string(::getpid());
  }
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", std::gmtime(&now));
  return std::string(buf) + "-" + std::to_string(::getpid());
}

Result<fs::path> prepareOutDir(const std::optional<std::string>& outFlag, const fs::path& repo,
                               const std::string& runId, const Environment& env) {
  fs::path out;
  if (outFlag)
    out = *outFlag;
  else if (auto t = env.get("RUNNER_TEMP"); t && !t->empty())
    out = fs::path(*t) / "loopwright" / runId;
  else
    out = fs::path("/tmp/loopwright") / runId;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec)
    return makeError(ErrorCode::UsageError, "cannot create " + out.string() + ": " + ec.message(),
                     "give --out a directory you can write");
  fs::path real = fs::canonical(out, ec);
  if (ec) return makeError(ErrorCode::UsageError, "cannot resolve " + out.string(), "");
  if (isWithinOrSame(real, repo))
    return makeError(ErrorCode::UsageError, "--out " + out.string() + " is inside the repository " + repo.string(),
                     "put the run's output outside the working tree, e.g. --out /tmp/lw-out");
  ::chmod(real.c_str(), 0700);
  return real;
}

std::string stateDirFor(bool hostConfigPresent, const std::string& hostStateDir, const Environment& env) {
  if (hostConfigPresent) return hostStateDir;
  if (auto t = env.get("RUNNER_TEMP"); t && !t->empty()) return *t + "/loopwright-state";
  if (::access(fs::path(hostStateDir).parent_path().c_str(), W_OK) == 0) return hostStateDir;
  return env.get("HOME").value_or("/tmp") + "/.local/state/loopwright";
}

std::optional<std::string> unsandboxedDefaultWarning(const RunPlan& plan,
                                                     const std::optional<std::string>& runnerEnvironment) {
  if (runnerEnvironment == "github-hosted") return std::nullopt;
  std::string steps;
  for (const PlannedStage& stage : plan.stages)
    for (const PlannedStep& s : stage.steps)
      if (s.policy.githubActionsDefault) steps += (steps.empty() ? "" : ", ") + stepLabel(stage.name, s.policy.step);
  if (steps.empty()) return std::nullopt;
  return "steps " + steps +
         " run with no sandbox: with no spec.sandbox, GitHub Actions' default is direct-dedicated, meant for the "
         "fresh VM of a GitHub-hosted runner, but this runner is not GitHub-hosted (RUNNER_ENVIRONMENT=" +
         runnerEnvironment.value_or("(unset)") +
         "): its machine outlives the job and the steps run beside the GitHub token. Give the taskpack a "
         "spec.sandbox (e.g. preferredBackends: [linux-bwrap, linux-landlock]), or install a host config "
         "(/etc/loopwright/host.yaml), which forbids direct-dedicated unless it says allowDirectDedicated: true";
}

std::vector<std::string> secretValues(const Environment& env) {
  std::vector<std::string> out;
  for (const auto& [name, value] : env.all()) {
    bool secretName = name.find("TOKEN") != std::string::npos || name.find("SECRET") != std::string::npos ||
                      name.find("PASSWORD") != std::string::npos || name.ends_with("_KEY") ||
                      name.find("API_KEY") != std::string::npos;
    if (secretName && value.size() >= 8) out.push_back(value);
  }
  return out;
}

}  // namespace lw::pipeline
