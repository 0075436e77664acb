#include "pipeline/step/escalation_rerun.h"

#include "pipeline/step/escalation_plan.h"
#include "pipeline/step/step_plan.h"

namespace lw::pipeline {
namespace fs = std::filesystem;

namespace {

// Moves the first attempt's step directory aside so that the re-run gets a
// fresh one at the usual place; returns where it is kept.
std::string keepFirstAttempt(const fs::path& stepDir) {
  fs::path kept = stepDir;
  kept += ".first-attempt";
  std::error_code ec;
  fs::remove_all(kept, ec);
  fs::rename(stepDir, kept, ec);
  return ec ? stepDir.string() : kept.string();
}

}  // namespace

StepRecord escalateIfDue(StepRecord first, const PlannedStep& planned, StepBaseline& baseline, const RunContext& ctx,
                         const RerunTools& tools) {
  auto decision = decideEscalation(first, planned.policy, /*alreadyEscalated=*/false);
  if (!decision) return first;
  if (!decision->rerun) return withoutRerun(std::move(first), *decision);
  tools.say("  " + planned.policy.step + ": " + std::string(toString(first.outcome)) + " by " + decision->trigger +
            "; re-run once at " + std::string(toString(decision->to)));
  PlannedStep higher = planned;
  higher.policy.sandbox.minIsolation = decision->to;
  higher.policy.origins["isolation"] =
      "escalation from " + std::string(toString(decision->from)) + " on " + decision->trigger;
  const std::string stepDir = stepLayout(ctx.outRoot, planned.policy).stepDir.string();
  const std::string firstDir = keepFirstAttempt(stepDir);
  for (std::size_t at = 0; (at = first.blocker.find(stepDir, at)) != std::string::npos; at += firstDir.size())
    first.blocker.replace(at, stepDir.size(), firstDir);
  auto negotiated = sandbox::negotiate({higher.policy.sandbox, false}, tools.probeFor);
  sandbox::Backend* backend = negotiated ? tools.backendFor(negotiated->backend) : nullptr;
  StepRecord second = runStep(higher, negotiated, backend, baseline, ctx, tools.makeBridge);
  return withRerun(first, std::move(second), *decision, firstDir);
}

}  // namespace lw::pipeline
