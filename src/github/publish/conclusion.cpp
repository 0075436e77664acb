#include "github/publish/conclusion.h"

#include <algorithm>
#include <utility>

#include "github/markdown/inert_markdown.h"

namespace lw::github {

namespace {

// A more severe failure raises the conclusion to failure; a neutral reason
// (FailureKind::None) only lifts a success to neutral.
void raise(Verdict& v, FailureKind kind, std::string reason) {
  Conclusion c = kind == FailureKind::None ? Conclusion::Neutral : Conclusion::Failure;
  v.conclusion = std::max(v.conclusion, c);
  v.worst = std::max(v.worst, kind);
  v.reasons.push_back(std::move(reason));
}

void judgeSteps(Verdict& v, const std::vector<StepRow>& steps, const std::string* stage, FailOn failOn) {
  for (const StepRow& s : steps) {
    if (stage && s.stage != *stage) continue;
    if (FailureKind k = failureOf(s); k != FailureKind::None)
      raise(v, k, "`" + s.step + "`: " + inertOneLine(s.blocker));
    if (s.coverage && !s.coverage->complete) {
      std::string why = s.coverage->reason.empty() ? "no reason given" : inertOneLine(s.coverage->reason);
      raise(v, failOn == FailOn::Never ? FailureKind::None : FailureKind::Failed,
            "`" + s.step + "` did not review the whole change: " + why);
    }
  }
}

std::size_t failingIn(const StageResult& stage, FailOn failOn) {
  return static_cast<std::size_t>(std::count_if(stage.findings.begin(), stage.findings.end(),
                                                [&](const Finding& f) { return failsAt(f.severity, failOn); }));
}

void judgeFindings(Verdict& v, std::size_t failing, FailOn failOn) {
  if (failing > 0)
    raise(v, FailureKind::Failed,
          std::to_string(failing) + " finding(s) at the fail level (" + std::string(toString(failOn)) + ")");
}

// Earlier reviews' findings that are still open fail the check as they did
// when they were posted: a push that fixes nothing changes nothing.
void judgeCarried(Verdict& v, const std::vector<StageResult>& stages, FailOn failOn) {
  std::vector<CarriedFinding> failing;
  for (const StageResult& stage : stages)
    for (const CarriedFinding& c : stillCounting(stage))
      if (failsAt(c.severity, failOn)) failing.push_back(c);
  for (std::string& reason : carriedSummary(failing)) raise(v, FailureKind::Failed, std::move(reason));
}

}  // namespace

std::string_view toString(FailureKind k) {
  switch (k) {
    case FailureKind::None: return "none";
    case FailureKind::Failed: return "failed";
    case FailureKind::Refused: return "refused";
    case FailureKind::Guardrail: return "guardrail";
    case FailureKind::Verification: return "verification";
  }
  return "failed";
}

FailureKind failureOf(const StepRow& s) {
  const std::optional<StepOutcome>& outcome = s.outcome;
  if (!outcome || *outcome == StepOutcome::Passed || *outcome == StepOutcome::Skipped)
    return s.blocked ? FailureKind::Guardrail : FailureKind::None;
  switch (*outcome) {
    case StepOutcome::Passed:
    case StepOutcome::Skipped: return FailureKind::None;
    case StepOutcome::Quarantined: return FailureKind::Verification;
    case StepOutcome::Blocked: return FailureKind::Guardrail;
    case StepOutcome::Refused: return FailureKind::Refused;
    case StepOutcome::Failed:
    case StepOutcome::Error: return FailureKind::Failed;
  }
  return FailureKind::Failed;
}

Verdict judgeStage(const StageResult& stage, const std::vector<StepRow>& steps, FailOn failOn) {
  Verdict v;
  judgeSteps(v, steps, &stage.name, failOn);
  judgeFindings(v, failingIn(stage, failOn), failOn);
  judgeCarried(v, {stage}, failOn);
  return v;
}

Verdict concludeRun(PublicationRequest& request) {
  Verdict v = judgeRun(request);
  request.conclusion = v.conclusion;
  return v;
}

bool stepFailed(const StepRow& s) { return failureOf(s) != FailureKind::None; }

bool reviewedWhole(const PublicationRequest& request) {
  for (const StepRow& s : request.steps)
    if (stepFailed(s) || (s.coverage && !s.coverage->complete)) return false;
  return true;
}

Verdict judgeRun(const std::vector<StageResult>& stages, const std::vector<StepRow>& steps, FailOn failOn) {
  Verdict v;
  judgeSteps(v, steps, nullptr, failOn);
  std::size_t failing = 0;
  for (const StageResult& stage : stages) failing += failingIn(stage, failOn);
  judgeFindings(v, failing, failOn);
  judgeCarried(v, stages, failOn);
  return v;
}

Verdict judgeRun(const PublicationRequest& request) {
  return judgeRun(request.stages, request.steps, request.options.failOn);
}

}  // namespace lw::github
