// One run of one case, reduced to what scoring needs: the accepted findings
// of each step, each step's lane, outcome, tokens, time and coverage, and
// the lines the case's change touched. Built from the run record `run`
// writes (pipeline/run/run_record.h) and the steps' effective policies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/finding.h"
#include "eval/matcher.h"
#include "pipeline/run/run_record.h"
#include "policy/model/effective_policy.h"

namespace lw::eval {

struct StepRun {
  std::string step;
  std::string lane;              // "" when the step has none
  std::string outcome;           // the record's ("passed", "failed", "blocked", …)
  bool passed = false;           // passed, or skipped with its stage
  std::int64_t inputTokens = 0;  // as the lane reported them through the bridge
  std::int64_t outputTokens = 0;
  std::int64_t durationMs = 0;
  int filesClipped = 0;  // from its coverage.json
  int filesSkipped = 0;
  bool coverageIncomplete = false;
  std::vector<DroppedFinding> dropped{};  // findings the step set aside (its coverage.json)
};

struct CaseRun {
  std::string caseName;
  int repeat = 0;  // 0-based
  std::vector<Finding> findings;
  std::vector<StepRun> steps;
  DiffLines diff;
  std::int64_t stepsMs = 0;  // the run record's duration: the steps' own time
  std::int64_t wallMs = 0;   // the case as eval ran it: materialised, run, cleaned up
  std::string error;         // why the case did not run; then nothing else is set
};

// The steps of `record` that ran, with the lane each runs on from `policies`.
void fillFromRecord(CaseRun& run, const pipeline::RunRecord& record, const std::vector<EffectiveStep>& policies);

// The new-side line ranges of each file's hunks in a unified diff; IO_ERROR
// when the diff does not parse.
Result<DiffLines> diffLinesOf(std::string_view unifiedDiff);

}  // namespace lw::eval
