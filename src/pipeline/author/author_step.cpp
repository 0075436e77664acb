#include "pipeline/author/author_step.h"

#include <unistd.h>

#include "pipeline/author/author_worktree.h"
#include "pipeline/author/change_plan.h"
#include "pipeline/author/contract_apply.h"
#include "verify/git/worktree.h"
#include "verify/patch/worktree_patch.h"

namespace lw::pipeline {
namespace {

// The change the step made in `wt`, as a patch beside its logs: only after
// its verification passed, and while this run still holds the worktree.
AuthorChange proposedChange(const StepRecord& rec, AuthorWorktree& wt, const StepLayout& layout) {
  AuthorChange c;
  c.baseCommit = wt.tree().commit;
  if (rec.verification != verify::Verification::Passed) {
    c.refusedBecause =
        "verification did not pass (" +
        (rec.violationCode.empty() ? std::string(verify::toString(rec.verification)) : rec.violationCode) +
        "): no patch was made";
    return c;
  }
  if (auto fenced = wt.checkFence(); !fenced) {
    c.refusedBecause = "the worktree's lease was lost before its patch was made: " + fenced.error().message;
    return c;
  }
  const auto patchFile = layout.stepDir / "change.patch";
  auto patch = verify::writeWorktreePatch(wt.repo(), wt.tree().name, c.baseCommit, patchFile);
  if (!patch) {
    c.refusedBecause = "no patch: " + patch.error().message;
    return c;
  }
  c.patchFile = patchFile.string();
  c.paths = patch->paths;
  c.filesChanged = patch->filesChanged;
  c.linesAdded = patch->linesAdded;
  c.linesDeleted = patch->linesDeleted;
  c.binaryPaths = patch->binaryPaths;
  c.binaryBytes = patch->binaryBytes;
  return c;
}

// The worktree, or why there is none (the step is then not run).
Result<std::unique_ptr<AuthorWorktree>> claimWorktree(const PlannedStep& planned, const RunContext& ctx) {
  if (ctx.leases == nullptr)
    return makeError(ErrorCode::LeaseUnavailable, "no lease store for author worktrees",
                     "author steps need the state directory (host config stateDir)");
  auto head = verify::headCommit(ctx.repo);
  if (!head) return head.error();
  return AuthorWorktree::open(*ctx.leases, planWorktree(ctx.stateDir, ctx.runId, planned.policy, ::getpid()), ctx.repo,
                              *head);
}

// A worktree left behind (its lease keeps the teardown marker) is an error
// of the step: its change is not published.
void recordTeardown(const Status& torn, StepRecord& rec) {
  if (torn) return;
  rec.outcome = StepOutcome::Error;
  rec.message = "worktree teardown: " + torn.error().message;
  if (rec.change) {
    rec.change->accepted = false;
    rec.change->refusedBecause = "the worktree could not be torn down: " + torn.error().message;
  }
}

}  // namespace

StepRecord runAuthorStep(const PlannedStep& planned, const Result<sandbox::Negotiated>& negotiated,
                         sandbox::Backend* backend, const std::filesystem::path& baselineStore, const RunContext& ctx,
                         const BridgeFactory& makeBridge) {
  if (!negotiated || backend == nullptr) {
    StepBaseline unused(ctx.repo, baselineStore);
    return runStep(planned, negotiated, backend, unused, ctx, makeBridge);
  }
  auto wt = claimWorktree(planned, ctx);
  if (!wt)
    return notRunRecord(planned, ctx, StepOutcome::Error,
                        "worktree: " + std::string(codeName(wt.error().code)) + ": " + wt.error().message);
  const StepWorkspace workspace{(*wt)->tree().path, (*wt)->tree().commonDir};
  StepRecord rec;
  {
    StepBaseline baseline(workspace.workTree, baselineStore);
    rec = runStep(planned, negotiated, backend, baseline, ctx, makeBridge, &workspace);
  }
  AuthorChange change = proposedChange(rec, **wt, stepLayout(ctx.outRoot, planned.policy));
  applyTaskContract(planned, *backend, workspace, ctx, rec, change);
  decideChange(rec, change);
  rec.change = std::move(change);
  recordTeardown((*wt)->teardown(), rec);
  return rec;
}

}  // namespace lw::pipeline
