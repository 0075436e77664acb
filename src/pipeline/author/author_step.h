// An author step end to end (docs/author-steps.md): its own worktree claimed
// under a lease at the checkout's HEAD, the step run and verified there, its
// change written as a patch when verification passed, the change decided
// (author_change.h), and the worktree torn down under the lease. The
// orchestrator's checkout is never the step's workspace.
#pragma once

#include <filesystem>

#include "pipeline/step/step_runner.h"

namespace lw::pipeline {

// `baselineStore`: where the worktree's baseline keeps captured bytes
// (outside every sandbox view). A step refused by negotiation makes no
// worktree. Without ctx.leases the step is not run (Error).
StepRecord runAuthorStep(const PlannedStep& step, const Result<sandbox::Negotiated>& negotiated,
                         sandbox::Backend* backend, const std::filesystem::path& baselineStore, const RunContext& ctx,
                         const BridgeFactory& makeBridge);

}  // namespace lw::pipeline
