// The one place that decides whether a check run (a stage) and the run as a
// whole are a success, and if not, what failed worst. Never a silent green:
// findings at the fail level, a step that failed or was stopped (model down,
// breaker open, budget, wall time), and a review whose coverage.json says it
// did not cover the change all make it non-success, with the reason.
// docs/review-coverage.md. The exit status is mapped from the verdict only in
// cli/ (cli/exit_codes.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "github/publish/publication.h"
#include "github/publish/step_outcome.h"

namespace lw::github {

// What made a run fail, least severe first: a run is as bad as its worst.
enum class FailureKind {
  None,          // a success, or neutral
  Failed,        // findings at the fail level, a failed step, an incomplete review
  Refused,       // a step no backend could sandbox as its policy asks
  Guardrail,     // a step stopped by a guardrail or its wall time
  Verification,  // a step's changes violated its role and were quarantined
};
std::string_view toString(FailureKind k);

struct Verdict {
  Conclusion conclusion = Conclusion::Success;
  FailureKind worst = FailureKind::None;  // None unless conclusion is Failure
  std::vector<std::string> reasons;       // why not success, one line each
};

// What one step's ending weighs in a verdict. Rows of older outbox entries
// carry only `blocked` and count as a guardrail stop; an outcome this
// version does not know counts as a failed step.
FailureKind failureOf(const StepRow& s);

// `steps` may hold rows of other stages; only `stage`'s count. An incomplete
// coverage is "failure", or "neutral" when the taskpack fails on nothing
// (failOn: never); a failed or blocked step and findings at the fail level
// are "failure".
Verdict judgeStage(const StageResult& stage, const std::vector<StepRow>& steps, FailOn failOn);

// Every stage and every step row of a run, as judgeStage judges one stage.
Verdict judgeRun(const std::vector<StageResult>& stages, const std::vector<StepRow>& steps, FailOn failOn);
Verdict judgeRun(const PublicationRequest& request);

// The one decision of a run's conclusion: judges `request` as it will be
// published (after carryOpenFindings) and sets its conclusion.
Verdict concludeRun(PublicationRequest& request);

// A step that did not pass: blocked, or failed, refused, quarantined, in
// error. Rows of older outbox entries carry only `blocked`.
bool stepFailed(const StepRow& s);

// True when every step passed and every coverage is complete: the head was
// reviewed whole, so a later run may review only what changed since.
bool reviewedWhole(const PublicationRequest& request);

}  // namespace lw::github
