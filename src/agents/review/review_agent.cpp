#include "agents/review/review_agent.h"

#include <algorithm>
#include <random>

#include "agents/output.h"
#include "agents/review/bridge_reads.h"
#include "agents/review/coverage_summary.h"
#include "agents/review/finding_mapping.h"
#include "agents/review/review_params.h"
#include "diff/unified_diff.h"

namespace lw::agents::review {

namespace {

// The step could not start reviewing: say so in coverage.json too, so the
// summary names the reason and not only the exit status.
int cannotReview(AgentContext& ctx, const std::string& what, const Error& e, const std::string& head = "") {
  ctx.log << "builtin/review: " << what << ": " << codeName(e.code) << ": " << e.message << "\n";
  Coverage c;
  c.complete = false;
  c.reason = what + ": " + e.message;
  c.head = head;
  (void)writeCoverage(ctx.outDir, c);
  (void)writeFindings(ctx.outDir, {});
  return 1;
}

PromptInputs promptContext(const PullInfo& pull, const std::optional<Instructions>& instructions) {
  PromptInputs in;
  in.title = pull.title;
  in.body = pull.body;
  if (instructions) {
    in.instructions = instructions->text;
    in.instructionsSource = instructions->source;
  }
  return in;
}

std::vector<Finding> reportable(const RunResult& run, const diff::DiffIndex& diff, const ReviewParams& p) {
  std::vector<Finding> out;
  for (const ModelFinding& m : keepWorthReporting(run.findings, p.minSeverity, p.minConfidence, p.maxFindings))
    out.push_back(toFinding(m, diff));
  return out;
}

// The model, not the budget, left part of the diff unreviewed: the step
// failed (its coverage says which files); a budget reached is a partial
// review by the taskpack's own choice.
bool modelFailedUs(const RunResult& run) {
  return !run.modelError.empty() &&
         std::any_of(run.chunks.begin(), run.chunks.end(), [](const ChunkResult& c) { return !c.reviewed; });
}

int finish(AgentContext& ctx, const RunResult& run, Coverage coverage, const std::vector<Finding>& findings) {
  coverage.tokensUsed = run.tokensUsed;
  const Status wroteFindings = writeFindings(ctx.outDir, findings);
  const Status wroteCoverage = writeCoverage(ctx.outDir, coverage);
  for (const Status* s : {&wroteFindings, &wroteCoverage})
    if (!*s) ctx.log << "builtin/review: " << s->error().message << "\n";
  ctx.log << "builtin/review: " << findings.size() << " findings, " << run.tokensUsed << " tokens, "
          << (coverage.complete ? "complete" : "incomplete: " + coverage.reason) << "\n";
  if (!wroteFindings || !wroteCoverage) return 1;
  return run.stop || modelFailedUs(run) ? 1 : 0;
}

}  // namespace

int reviewPullRequest(AgentContext& ctx, const RandomBits& random) {
  Result<ReviewParams> params = readReviewParams(ctx.params);
  if (!params) return cannotReview(ctx, "bad parameters", params.error());
  Result<PullRequestInputs> pr = readPullRequest(ctx.bridge);
  if (!pr) return cannotReview(ctx, "could not read the pull request", pr.error());
  Result<diff::DiffIndex> diff = diff::DiffIndex::parse(pr->diff.diff);
  if (!diff) return cannotReview(ctx, "could not read the pull request's diff", diff.error(), pr->diff.head);

  const Selection selection = selectFiles(pr->files.files, *diff, params->exclude, params->maxFiles);
  const ChunkPlan plan = planChunks(selection.review, *diff, params->chunkTokens);
  std::optional<Instructions> instructions;
  if (!plan.chunks.empty()) {
    Result<std::optional<Instructions>> read = readInstructions(ctx.bridge, params->instructions);
    if (!read && isGuardrailStop(read.error())) return cannotReview(ctx, "stopped", read.error(), pr->diff.head);
    if (!read)
      ctx.log << "builtin/review: no repository instructions: " << read.error().message << "\n";
    else
      instructions = *read;
  }
  ReviewRun review(ctx.bridge, params->maxTokens, params->chunkTokens, promptContext(pr->pull, instructions), random,
                   ctx.log);
  const RunResult run = review.run(plan.chunks);
  Coverage coverage = summarizeCoverage(selection, plan, run, pr->diff.truncated || pr->files.truncated);
  coverage.head = pr->diff.head;
  if (pr->diff.incremental) coverage.incrementalFrom = pr->diff.base;
  return finish(ctx, run, std::move(coverage), reportable(run, *diff, *params));
}

}  // namespace lw::agents::review

namespace lw::agents {

int runReviewAgent(AgentContext& ctx) {
  std::random_device device;
  return review::reviewPullRequest(ctx, [&device] { return (std::uint64_t{device()} << 32) | device(); });
}

}  // namespace lw::agents
