// What `loopwright run` does between loading the event and writing run.json:
// the trusted taskpack, the host config and every step's policy, the plan,
// the run's context and the stages themselves (each step in its sandbox,
// with its bridge, guardrails and verification). Nothing is published here:
// `run` publishes what this returns, `eval` scores it (docs/evals.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command.h"
#include "core/result.h"
#include "pipeline/run/run_plan.h"
#include "pipeline/run/run_record.h"
#include "pipeline/run/run_setup.h"
#include "policy/model/effective_policy.h"
#include "policy/model/host_config.h"
#include "policy/model/taskpack.h"

namespace lw::cli {

// What a run is decided from: the trusted taskpack, the host config and the
// effective policy of every step.
struct RunInputs {
  std::filesystem::path repo;
  HostConfig host;
  Taskpack taskpack;
  std::vector<EffectiveStep> policies;
};

// What `eval` changes in a run `run` would make: the model lane every step
// that calls a model is bound to (`eval --lane`, policy/resolve/lane_binding.h).
struct RunOverrides {
  std::optional<std::string> modelLane;
};

// --repo, --taskpack/--taskpack-path and --fail-on of `run`'s options read
// as `run` reads them (for pull requests the base commit's taskpack), with
// `overrides` applied to the taskpack before the steps' policies are
// resolved.
Result<RunInputs> loadRunInputs(const Args& args, const pipeline::EventInput& event, Io& io,
                                const RunOverrides& overrides = {});

// A run carried out: its inputs, the plan, the record and its out dir.
struct ExecutedRun {
  RunInputs inputs;
  pipeline::RunPlan plan;
  pipeline::RunRecord record;
  std::filesystem::path out;
};

// Runs the stages `eventName`/`action` select with `run`'s options (--repo,
// --out, --taskpack, --fail-on): every step sandboxed, bridged, guarded and
// verified. Fails before any step runs (configuration, out dir); a step that
// fails is in the record.
Result<ExecutedRun> executeRun(const Args& args, const pipeline::EventInput& event, const std::string& eventName,
                               const std::string& action, Io& io, const RunOverrides& overrides = {});

}  // namespace lw::cli
