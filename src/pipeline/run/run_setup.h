// Everything `loopwright run` settles before the first step: the event, the
// taskpack (from the base commit for pull requests), the output directory,
// the run id and the secrets to mask. Thin shells over values, so tests can
// drive them without the process environment.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/environment.h"
#include "core/result.h"
#include "github/actions/github_event.h"
#include "pipeline/run/run_plan.h"

namespace lw::pipeline {

struct EventInput {
  std::string name;     // "pull_request"
  std::string action;   // "opened"; empty when none
  std::string baseSha;  // pull requests: where the trusted taskpack is read from
  std::string payloadText;
  boost::json::value payload;
  std::string source;                        // the file it came from, or "(none)"
  std::optional<github::GithubEvent> typed;  // set when a payload was given
};

// From --event-name N[.action] and --event-path F, or under GITHUB_ACTIONS=true
// from GITHUB_EVENT_NAME / GITHUB_EVENT_PATH. Without a payload the event is
// `{}` (local runs); with one, its action and base SHA are read from it and it
// must be a valid webhook payload (EVENT_INVALID otherwise).
Result<EventInput> loadEventInput(const std::optional<std::string>& nameFlag,
                                  const std::optional<std::string>& pathFlag, const Environment& env);

// GITHUB_RUN_ID-GITHUB_RUN_ATTEMPT-GITHUB_JOB-pid under Actions, else a UTC
// timestamp and pid.
std::string makeRunId(const Environment& env);

// The run's output directory: --out, else $RUNNER_TEMP/loopwright/<run>, else
// /tmp/loopwright/<run>. Refused (USAGE_ERROR) when inside the repository:
// the verification of every step would see the run's own files.
Result<std::filesystem::path> prepareOutDir(const std::optional<std::string>& outFlag,
                                            const std::filesystem::path& repo, const std::string& runId,
                                            const Environment& env);

// Values never to publish: the environment's tokens, keys and passwords
// (by name), at least 8 characters long.
std::vector<std::string> secretValues(const Environment& env);

// Where the outbox lives: the host config's stateDir when a host config
// exists; else $RUNNER_TEMP/loopwright-state under Actions; else the
// built-in default when writable, else ~/.local/state/loopwright.
std::string stateDirFor(bool hostConfigPresent, const std::string& hostStateDir, const Environment& env);

// Why `run` must warn loudly (an annotation and a step-summary line), or
// nullopt: GitHub Actions' default (no sandbox policy) put steps of the plan
// on direct-dedicated, and the runner is not GitHub-hosted. That default is
// for a GitHub-hosted runner's fresh VM; elsewhere the machine outlives the
// job and the steps run with no sandbox beside the GitHub token.
// `runnerEnvironment` is RUNNER_ENVIRONMENT ("github-hosted", "self-hosted";
// unset on older runners, which counts as not GitHub-hosted).
std::optional<std::string> unsandboxedDefaultWarning(const RunPlan& plan,
                                                     const std::optional<std::string>& runnerEnvironment);

}  // namespace lw::pipeline
