#include "pipeline/run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "pipeline/step_escalation.h"

#include "pipeline/author_step.h"
#include "pipeline/author_worktree.h"

namespace lw::pipeline {
namespace {

sandbox::Backend* backendFor(std::vector<std::unique_ptr<sandbox::Backend>>& backends,
                             BackendId id) {
  for (auto& b : backends)
    if (b->id() == id) return b.get();
  return nullptr;
}

// Why no further stage can run, or empty: a step left the repository in a
// state its role does not allow and it could not be put back (or checked).
std::string repositoryLeftChanged(const std::vector<StageRecord>& done) {
  for (const StageRecord& stage : done)
    for (const StepRecord& s : stage.steps)
      if (!s.repositoryIntact)
        return "step '" + s.step + "' of stage '" + stage.name + "' " +
               (s.verification == verify::Verification::Violation ? "changed the repository and the change could not be undone"
                                              : "could not be verified: the repository may be changed");
  return {};
}

// Why a stage cannot run, or empty when its needs passed.
std::string unmetNeeds(const PlannedStage& stage, const std::vector<StageRecord>& done) {
  for (const std::string& need : stage.needs) {
    auto it = std::find_if(done.begin(), done.end(),
                           [&](const StageRecord& r) { return r.name == need; });
    if (it == done.end()) return "needs '" + need + "', which this event did not run";
    if (!it->ran) return "needs '" + need + "', which was skipped";
    for (const StepRecord& s : it->steps)
      if (s.outcome != StepOutcome::Passed)
        return "needs '" + need + "', whose step '" + s.step + "' " + std::string(toString(s.outcome));
  }
  return {};
}

}  // namespace

RunRecord runPlan(const RunPlan& plan, std::vector<std::unique_ptr<sandbox::Backend>>& backends,
                  const RunContext& ctx, const BridgeFactory& makeBridge, std::ostream& progress) {
  RunRecord run;
  std::mutex progressMu;
  auto say = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(progressMu);
    progress << line << "\n" << std::flush;
  };
  auto probeFor = [&](BackendId id) -> const sandbox::ProbeReport* {
    sandbox::Backend* b = backendFor(backends, id);
    return b ? &b->probe() : nullptr;
  };

  // Worktrees of earlier runs that crashed, once their leases expired.
  if (ctx.leases != nullptr)
    for (const std::string& note : reclaimExpiredWorktrees(*ctx.leases, ctx.stateDir, "run " + ctx.runId + " reclaim"))
      say(note);

  for (const PlannedStage& stage : plan.stages) {
    StageRecord record;
    record.name = stage.name;
    record.skippedBecause = repositoryLeftChanged(run.stages);
    if (record.skippedBecause.empty()) record.skippedBecause = unmetNeeds(stage, run.stages);
    if (!record.skippedBecause.empty()) {
      say("stage " + stage.name + ": skipped (" + record.skippedBecause + ")");
      for (const PlannedStep& s : stage.steps) {
        StepRecord skipped;
        skipped.stage = stage.name;
        skipped.step = s.policy.step;
        skipped.role = s.policy.role;
        skipped.outcome = StepOutcome::Skipped;
        skipped.message = record.skippedBecause;
        record.steps.push_back(std::move(skipped));
      }
      run.stages.push_back(std::move(record));
      continue;
    }
    record.ran = true;
    const auto stageStarted = std::chrono::steady_clock::now();
    say("stage " + stage.name + ": " + std::to_string(stage.steps.size()) + " steps");

    // Provisioning: every step's backend is chosen before any step starts.
    std::vector<Result<sandbox::Negotiated>> negotiated;
    std::vector<bool> shared;
    for (const PlannedStep& s : stage.steps) {
      negotiated.push_back(sandbox::negotiate({s.policy.sandbox, false}, probeFor));
      bool contained = false;
      if (negotiated.back()) {
        const auto& caps = negotiated.back()->enforced;
        contained = std::find(caps.begin(), caps.end(), Capability::FilesystemWriteContainment) != caps.end();
      }
      shared.push_back(mayShareWorkingTree(s.policy.role, contained));
    }

    record.steps.resize(stage.steps.size());
    // Stores of captured bytes stay outside every sandbox view: the out root
    // is not bound, only each step's out dir.
    const std::filesystem::path stageDir = ctx.outRoot / "steps" / stage.name;
    std::error_code ec;
    std::filesystem::create_directories(stageDir, ec);
    StepBaseline groupBaseline(ctx.repo, stageDir / "baseline.store");
    const RerunTools rerunTools{probeFor, [&](BackendId id) { return backendFor(backends, id); }, makeBridge, say};
    auto runOne = [&](std::size_t i, StepBaseline& baseline) {
      const PlannedStep& s = stage.steps[i];
      say("  " + s.policy.step + ": started");
      sandbox::Backend* backend =
          negotiated[i] ? backendFor(backends, negotiated[i]->backend) : nullptr;
      record.steps[i] = runStep(s, negotiated[i], backend, baseline, ctx, makeBridge);
      record.steps[i] = escalateIfDue(std::move(record.steps[i]), s, baseline, ctx, rerunTools);
      const StepRecord& r = record.steps[i];
      say("  " + s.policy.step + ": " + std::string(toString(r.outcome)) +
          (r.backend.empty() ? "" : " on " + r.backend) + " (" + std::to_string(r.durationMs) + " ms)");
    };

    // An author works in its own worktree, verified there (author_step.h).
    auto runAuthor = [&](std::size_t i, const std::filesystem::path& store) {
      const PlannedStep& s = stage.steps[i];
      say("  " + s.policy.step + ": started in its own worktree");
      sandbox::Backend* backend = negotiated[i] ? backendFor(backends, negotiated[i]->backend) : nullptr;
      record.steps[i] = runAuthorStep(s, negotiated[i], backend, store, ctx, makeBridge);
      const StepRecord& r = record.steps[i];
      say("  " + s.policy.step + ": " + std::string(toString(r.outcome)) +
          (r.backend.empty() ? "" : " on " + r.backend) + " (" + std::to_string(r.durationMs) + " ms)");
    };

    // Steps that keep to their own out dir run side by side, verified against
    // one baseline; the others alone, each against its own (an author's in
    // its own worktree).
    std::vector<std::size_t> parallel, alone;
    for (std::size_t i = 0; i < stage.steps.size(); ++i) (shared[i] ? parallel : alone).push_back(i);
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    const std::size_t width = std::min<std::size_t>(static_cast<std::size_t>(plan.maxConcurrency), parallel.size());
    for (std::size_t w = 0; w < width; ++w)
      workers.emplace_back([&] {
        for (std::size_t k; (k = next.fetch_add(1)) < parallel.size();) runOne(parallel[k], groupBaseline);
      });
    for (auto& t : workers) t.join();
    for (std::size_t i : alone) {
      const std::filesystem::path store = stageDir / (stage.steps[i].policy.step + ".baseline.store");
      if (stage.steps[i].policy.role == Role::Author) {
        runAuthor(i, store);
        continue;
      }
      StepBaseline own(ctx.repo, store);
      runOne(i, own);
    }
    record.durationMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - stageStarted).count();
    run.stages.push_back(std::move(record));
  }
  run.skippedStages = plan.skippedStages;
  return run;
}

}  // namespace lw::pipeline
