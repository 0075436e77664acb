// The one place that decides whether a check run (a stage) and the run as a
// whole are a success. Never a silent green: findings at the fail level, a
// step that failed or was stopped (model down, breaker open, budget, wall
// time), and a review whose coverage.json says it did not cover the change
// all make it non-success, with the reason. docs/review-coverage.md.
#pragma once

#include <string>
#include <vector>

#include "github/publication.h"

namespace lw::github {

struct Verdict {
  std::string conclusion = "success";  // "success" | "neutral" | "failure"
  std::vector<std::string> reasons;    // why not success, one line each
};

// `steps` may hold rows of other stages; only `stage`'s count. An incomplete
// coverage is "failure", or "neutral" when the taskpack fails on nothing
// (failOn: never); a failed or blocked step and findings at the fail level
// are "failure".
Verdict judgeStage(const StageResult& stage, const std::vector<StepRow>& steps, FailOn failOn);

// Every stage of the request, and steps of stages that produced no result.
Verdict judgeRun(const PublicationRequest& request);

// A step that did not pass: blocked, or failed, refused, quarantined, in
// error. Rows of older outbox entries carry only `blocked`.
bool stepFailed(const StepRow& s);

// True when every step passed and every coverage is complete: the head was
// reviewed whole, so a later run may review only what changed since.
bool reviewedWhole(const PublicationRequest& request);

}  // namespace lw::github
