// What every step of one run shares: where the repository, the out root and
// the event are, the environment the steps inherit from, the secret scanner,
// and the clock their wall times are measured on.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <boost/json/value.hpp>

#include "core/environment.h"
#include "github/actions/github_event.h"
#include "guard/clock.h"
#include "lease/lease.h"
#include "verify/secrets/secret_scanner.h"

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
  // What the steps' durations and wall-time deadlines are measured on; null:
  // the steady clock. Tests pass a guard::ManualClock.
  const guard::Clock* clock = nullptr;
  // Where author steps' worktrees go (<stateDir>/worktrees/) and the leases
  // that say which run owns each (docs/author-steps.md). An author step
  // without a store is not run.
  std::filesystem::path stateDir;
  lease::Store* leases = nullptr;
};

// ctx.clock's time, or the steady clock's when it has none.
inline guard::TimePoint nowOf(const RunContext& ctx) {
  return ctx.clock ? ctx.clock->now() : std::chrono::steady_clock::now();
}

}  // namespace lw::pipeline
