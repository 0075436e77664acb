#include "eval/case_run.h"

#include "diff/unified_diff.h"

namespace lw::eval {
namespace {

using pipeline::StepOutcome;

std::string laneOf(const std::vector<EffectiveStep>& policies, const std::string& stage, const std::string& step) {
  for (const EffectiveStep& p : policies)
    if (p.stage == stage && p.step == step) return p.lane.value_or("");
  return "";
}

StepRun stepRunOf(const pipeline::StepRecord& s, const std::string& lane) {
  StepRun r;
  r.step = s.step;
  r.lane = lane;
  r.outcome = std::string(toString(s.outcome));
  r.passed = s.outcome == StepOutcome::Passed || s.outcome == StepOutcome::Skipped;
  r.inputTokens = s.inputTokens;
  r.outputTokens = s.outputTokens;
  r.durationMs = s.durationMs;
  if (s.coverage) {
    for (const FileCoverage& f : s.coverage->files) {
      if (f.status == FileReview::Clipped) ++r.filesClipped;
      if (f.status == FileReview::Skipped) ++r.filesSkipped;
    }
    r.coverageIncomplete = !s.coverage->complete;
    r.dropped = s.coverage->dropped;
  }
  return r;
}

}  // namespace

void fillFromRecord(CaseRun& run, const pipeline::RunRecord& record, const std::vector<EffectiveStep>& policies) {
  for (const pipeline::StageRecord& stage : record.stages)
    for (const pipeline::StepRecord& s : stage.steps) {
      run.steps.push_back(stepRunOf(s, laneOf(policies, stage.name, s.step)));
      for (Finding f : s.findings) {
        f.step = s.step;
        run.findings.push_back(std::move(f));
      }
    }
  run.stepsMs = record.durationMs;
}

Result<DiffLines> diffLinesOf(std::string_view unifiedDiff) {
  auto index = diff::DiffIndex::parse(unifiedDiff);
  if (!index) return makeError(ErrorCode::IoError, "the case's diff does not parse: " + index.error().message);
  DiffLines out;
  for (const diff::DiffFile& f : index->files()) {
    if (f.newPath.empty()) continue;
    auto& ranges = out[f.newPath];
    for (const diff::DiffHunk& h : f.hunks)
      if (h.newCount > 0) ranges.push_back({h.newStart, h.newStart + h.newCount - 1});
  }
  return out;
}

}  // namespace lw::eval
