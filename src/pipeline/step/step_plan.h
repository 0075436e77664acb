// planStep: what one step needs prepared, decided before anything happens.
// Pure: the step's policy, the negotiated backend's traits, the run's
// context and two injected host lookups in; the out-dir layout, the bridge
// kind, the command and the complete StepSpec (environment included) out.
// runStep carries the plan out (step_runner.h).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "pipeline/run/run_context.h"
#include "pipeline/run/run_plan.h"
#include "pipeline/step/step_command.h"
#include "sandbox/backend.h"
#include "verify/check/check.h"

namespace lw::pipeline {

// Where one step's files live: <outRoot>/steps/<stage>/<step>, private to
// this user, with LOOPWRIGHT_OUT (out/) and the logs inside.
struct StepLayout {
  std::filesystem::path stepDir;
  std::filesystem::path outDir;
  std::filesystem::path stdoutLog;
  std::filesystem::path stderrLog;
  std::filesystem::path callsLog;  // the bridge's calls, one line each
};
StepLayout stepLayout(const std::filesystem::path& outRoot, const EffectiveStep& policy);

// How the step reaches its bridge (the backend's BackendTraits::bridge).
enum class BridgeKind {
  Descriptor,  // a socket pair; the step inherits its end as fd 3
  SocketPath,  // the bridge listens on a socket in the step's out dir
};

struct StepPlan {
  StepLayout layout;
  BridgeKind bridge = BridgeKind::Descriptor;
  std::string bridgeSocket;  // SocketPath: where the bridge listens; else empty
  // The step does not see host files: the run's event is copied to
  // `eventFile` in its out dir before launch. Else `eventFile` is the run's.
  bool copyEvent = false;
  std::filesystem::path eventFile;  // LOOPWRIGHT_EVENT
  // networkMode allow-list: where the step's egress proxy listens (in a
  // directory of its own, mounted read-only); else empty.
  std::filesystem::path egressSocket;
  // Complete but for passFd, which only the bridge, once made, can give
  // (Descriptor).
  sandbox::StepSpec spec;
};

// Where a step works: the orchestrator's checkout, or an author step's own
// worktree (author_worktree.h), which the checkout never is for it.
struct StepWorkspace {
  std::filesystem::path workTree;  // the step's workspace and working directory
  // A linked worktree's common git directory (the checkout's .git): visible
  // read-only where host files are, so that git works inside the step;
  // empty for the checkout itself.
  std::filesystem::path gitCommonDir;
};
// The orchestrator's checkout, ctx.repo.
StepWorkspace checkoutWorkspace(const RunContext& ctx);

// The host questions planning asks, injected so that it stays pure.
struct HostLookups {
  IsRegularFile isRegularFile;  // the engine beside loopwright
  // An existing directory or file that is no symlink (an author's writable
  // root is bound only then).
  std::function<bool(const std::filesystem::path&)> existsNotSymlink;
};
// The lookups answered by this host's filesystem.
HostLookups hostLookups();

// Fails (SANDBOX_LAUNCH_FAILED) only when the step's command cannot run on
// this backend: the step is then refused, nothing ran. `backendName` is for
// that message only. The step works in `workspace` (null: the checkout).
Result<StepPlan> planStep(const PlannedStep& step, const sandbox::BackendTraits& traits, std::string_view backendName,
                          const RunContext& ctx, const HostLookups& host, const StepWorkspace* workspace = nullptr);

// What the step's verification allows, by its role: an author without
// `writable:` may write the whole workspace (protected paths aside), exactly
// what its sandbox allowed. A violation is quarantined and restored.
verify::CheckPolicy checkPolicyFor(const PlannedStep& step, const std::string& runId);

// Directories an author step's writable globs name, for the sandbox's
// writable binds: the part of each glob before its first wildcard, when it
// exists under `repo` ("src/**" -> repo/src). The libgit2 check enforces the
// globs exactly afterwards.
std::vector<std::filesystem::path> writableRoots(
    const std::filesystem::path& repo, const std::vector<std::string>& globs,
    const std::function<bool(const std::filesystem::path&)>& existsNotSymlink);

}  // namespace lw::pipeline
