// Runs one step end to end: baseline, launch in its negotiated sandbox with
// its bridge, wait under its wall time, verify, accept or quarantine its
// outputs, mask secrets. Everything it learns goes into the StepRecord;
// nothing here throws or decides the run's exit status.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/environment.h"
#include "core/result.h"
#include "github/event.h"
#include "pipeline/plan.h"
#include "pipeline/run_record.h"
#include "pipeline/step_baseline.h"
#include "pipeline/step_bridge.h"
#include "sandbox/backend.h"
#include "sandbox/negotiate.h"
#include "verify/secret_scanner.h"

namespace lw::pipeline {

struct RunContext {
  std::string runId;
  std::filesystem::path repo;       // real path of the working tree
  std::filesystem::path outRoot;    // real path, outside the repository
  std::filesystem::path eventFile;  // read-only copy the steps see as LOOPWRIGHT_EVENT
  boost::json::value event;         // the payload, for github.event
  std::filesystem::path selfExe;    // this binary, visible read-only (bridge stdio)
  const Environment* env = nullptr;
  // Masks secrets (token shapes and the run's exact values) in logs and
  // outputs; built once per run, shared by the steps (scanning is const).
  std::shared_ptr<const verify::SecretScanner> secrets;
  // The head an earlier run reviewed whole (pull_request.synchronize): the
  // GitHub reads diff from it. Empty: the whole change.
  std::string lastReviewedHead;
  // The event, typed (repository, number, base and head): what the bridge's
  // GitHub reads are about. Unset for a local run without a payload.
  std::optional<github::GithubEvent> githubEvent;
};

// Creates the bridge of one step; `onStop` is called (on the bridge's
// thread) when a guardrail stops the step. With `socketPath` the bridge
// listens there (for backends that cannot be handed a descriptor: docker);
// otherwise it serves one end of a socket pair.
using BridgeFactory = std::function<Result<std::unique_ptr<StepBridge>>(
    const PlannedStep& step, const RunContext& ctx, std::function<void(const guard::Event&)> onStop,
    const std::string& socketPath)>;

// `negotiated` is this step's negotiation, done before any step started;
// `backend` the winner (null when negotiation failed); `baseline` the one it
// is verified against (shared by the steps that run beside it).
StepRecord runStep(const PlannedStep& step, const Result<sandbox::Negotiated>& negotiated,
                   sandbox::Backend* backend, StepBaseline& baseline, const RunContext& ctx,
                   const BridgeFactory& makeBridge);

// Directories an author step's writable globs name, for the sandbox's
// writable binds: the part of each glob before its first wildcard, when it
// exists under `repo` ("src/**" -> repo/src). The libgit2 check enforces the
// globs exactly afterwards.
std::vector<std::filesystem::path> writableRoots(const std::filesystem::path& repo,
                                                 const std::vector<std::string>& globs);

}  // namespace lw::pipeline
