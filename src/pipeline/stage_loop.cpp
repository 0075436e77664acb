#include "pipeline/stage_loop.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "pipeline/author/author_step.h"
#include "pipeline/author/author_worktree.h"
#include "pipeline/step/escalation_rerun.h"

namespace lw::pipeline {
namespace {

sandbox::Backend* backendFor(std::vector<std::unique_ptr<sandbox::Backend>>& backends, BackendId id) {
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
               (s.verification == verify::Verification::Violation
                    ? "changed the repository and the change could not be undone"
                    : "could not be verified: the repository may be changed");
  return {};
}

// Why a stage cannot run, or empty when its needs passed.
std::string unmetNeeds(const PlannedStage& stage, const std::vector<StageRecord>& done) {
  for (const std::string& need : stage.needs) {
    auto it = std::find_if(done.begin(), done.end(), [&](const StageRecord& r) { return r.name == need; });
    if (it == done.end()) return "needs '" + need + "', which this event did not run";
    if (!it->ran) return "needs '" + need + "', which was skipped";
    for (const StepRecord& s : it->steps)
      if (s.outcome != StepOutcome::Passed)
        return "needs '" + need + "', whose step '" + s.step + "' " + std::string(toString(s.outcome));
  }
  return {};
}

// A stage that does not run: each of its steps recorded as skipped, and why.
StageRecord skippedStage(const PlannedStage& stage, const std::string& why) {
  StageRecord record;
  record.name = stage.name;
  record.skippedBecause = why;
  for (const PlannedStep& s : stage.steps) {
    StepRecord skipped;
    skipped.stage = stage.name;
    skipped.step = s.policy.step;
    skipped.role = s.policy.role;
    skipped.outcome = StepOutcome::Skipped;
    skipped.message = why;
    record.steps.push_back(std::move(skipped));
  }
  return record;
}

// Every step's backend, chosen before any step of the stage starts, and
// whether the step may run beside others against one baseline.
struct Provisioned {
  std::vector<Result<sandbox::Negotiated>> negotiated;
  std::vector<bool> shared;
};

Provisioned provision(const PlannedStage& stage, const sandbox::ProbeFor& probeFor) {
  Provisioned p;
  for (const PlannedStep& s : stage.steps) {
    p.negotiated.push_back(sandbox::negotiate({s.policy.sandbox, false}, probeFor));
    bool contained = false;
    if (p.negotiated.back()) {
      const auto& caps = p.negotiated.back()->enforced;
      contained = std::find(caps.begin(), caps.end(), Capability::FilesystemWriteContainment) != caps.end();
    }
    p.shared.push_back(mayShareWorkingTree(s.policy.role, contained));
  }
  return p;
}

// Runs the steps of one provisioned stage into `record.steps`: those that
// keep to their own out dir side by side, verified against one baseline;
// the others alone, each against its own (an author in its own worktree).
class StageRunner {
 public:
  StageRunner(const PlannedStage& stage, const Provisioned& provisioned, const RunContext& ctx, const RerunTools& tools,
              StageRecord& record)
      : stage_(stage),
        provisioned_(provisioned),
        ctx_(ctx),
        tools_(tools),
        record_(record),
        stageDir_(ctx.outRoot / "steps" / stage.name) {
    // Stores of captured bytes stay outside every sandbox view: the out root
    // is not bound, only each step's out dir.
    std::error_code ec;
    std::filesystem::create_directories(stageDir_, ec);
    record_.steps.resize(stage.steps.size());
  }

  void run(int maxConcurrency) {
    std::vector<std::size_t> parallel, alone;
    for (std::size_t i = 0; i < stage_.steps.size(); ++i) (provisioned_.shared[i] ? parallel : alone).push_back(i);
    runSideBySide(parallel, maxConcurrency);
    for (std::size_t i : alone) runAlone(i);
  }

 private:
  void runSideBySide(const std::vector<std::size_t>& steps, int maxConcurrency) {
    StepBaseline groupBaseline(ctx_.repo, stageDir_ / "baseline.store");
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    const std::size_t width = std::min<std::size_t>(static_cast<std::size_t>(maxConcurrency), steps.size());
    for (std::size_t w = 0; w < width; ++w)
      workers.emplace_back([&] {
        for (std::size_t k; (k = next.fetch_add(1)) < steps.size();) runOne(steps[k], groupBaseline);
      });
    for (auto& t : workers) t.join();
  }

  void runAlone(std::size_t i) {
    const std::filesystem::path store = stageDir_ / (stage_.steps[i].policy.step + ".baseline.store");
    if (stage_.steps[i].policy.role == Role::Author) return runAuthor(i, store);
    StepBaseline own(ctx_.repo, store);
    runOne(i, own);
  }

  sandbox::Backend* backendOf(std::size_t i) const {
    const auto& n = provisioned_.negotiated[i];
    return n ? tools_.backendFor(n->backend) : nullptr;
  }

  void runOne(std::size_t i, StepBaseline& baseline) {
    const PlannedStep& s = stage_.steps[i];
    tools_.say("  " + s.policy.step + ": started");
    StepRecord first = runStep(s, provisioned_.negotiated[i], backendOf(i), baseline, ctx_, tools_.makeBridge);
    record_.steps[i] = escalateIfDue(std::move(first), s, baseline, ctx_, tools_);
    sayEnded(i);
  }

  // An author works in its own worktree, verified there (author_step.h).
  void runAuthor(std::size_t i, const std::filesystem::path& store) {
    const PlannedStep& s = stage_.steps[i];
    tools_.say("  " + s.policy.step + ": started in its own worktree");
    record_.steps[i] = runAuthorStep(s, provisioned_.negotiated[i], backendOf(i), store, ctx_, tools_.makeBridge);
    sayEnded(i);
  }

  void sayEnded(std::size_t i) {
    const StepRecord& r = record_.steps[i];
    tools_.say("  " + stage_.steps[i].policy.step + ": " + std::string(toString(r.outcome)) +
               (r.backend.empty() ? "" : " on " + r.backend) + " (" + std::to_string(r.durationMs) + " ms)");
  }

  const PlannedStage& stage_;
  const Provisioned& provisioned_;
  const RunContext& ctx_;
  const RerunTools& tools_;
  StageRecord& record_;
  std::filesystem::path stageDir_;
};

}  // namespace

RunRecord runPlan(const RunPlan& plan, std::vector<std::unique_ptr<sandbox::Backend>>& backends, const RunContext& ctx,
                  const BridgeFactory& makeBridge, std::ostream& progress) {
  RunRecord run;
  std::mutex progressMu;
  auto say = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(progressMu);
    progress << line << "\n" << std::flush;
  };
  auto backendOf = [&](BackendId id) { return backendFor(backends, id); };
  auto probeFor = [&](BackendId id) -> const sandbox::ProbeReport* {
    sandbox::Backend* b = backendFor(backends, id);
    return b ? &b->probe() : nullptr;
  };
  const RerunTools tools{probeFor, backendOf, makeBridge, say};

  // Worktrees of earlier runs that crashed, once their leases expired.
  if (ctx.leases != nullptr)
    for (const std::string& note : reclaimExpiredWorktrees(*ctx.leases, ctx.stateDir, "run " + ctx.runId + " reclaim"))
      say(note);

  for (const PlannedStage& stage : plan.stages) {
    std::string skip = repositoryLeftChanged(run.stages);
    if (skip.empty()) skip = unmetNeeds(stage, run.stages);
    if (!skip.empty()) {
      say("stage " + stage.name + ": skipped (" + skip + ")");
      run.stages.push_back(skippedStage(stage, skip));
      continue;
    }
    StageRecord record;
    record.name = stage.name;
    record.ran = true;
    const auto stageStarted = std::chrono::steady_clock::now();
    say("stage " + stage.name + ": " + std::to_string(stage.steps.size()) + " steps");
    const Provisioned provisioned = provision(stage, probeFor);
    StageRunner(stage, provisioned, ctx, tools, record).run(plan.maxConcurrency);
    record.durationMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - stageStarted).count();
    run.stages.push_back(std::move(record));
  }
  run.skippedStages = plan.skippedStages;
  return run;
}

}  // namespace lw::pipeline
