#include "github/conclusion.h"

namespace lw::github {

namespace {

int rank(const std::string& conclusion) { return conclusion == "failure" ? 2 : conclusion == "neutral" ? 1 : 0; }

void raise(Verdict& v, const std::string& conclusion, std::string reason) {
  if (rank(conclusion) > rank(v.conclusion)) v.conclusion = conclusion;
  v.reasons.push_back(std::move(reason));
}

std::string oneLine(const std::string& s) {
  std::string out;
  for (char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

void judgeSteps(Verdict& v, const std::vector<StepRow>& steps, const std::string* stage, FailOn failOn) {
  for (const StepRow& s : steps) {
    if (stage && s.stage != *stage) continue;
    if (stepFailed(s)) raise(v, "failure", "`" + s.step + "`: " + oneLine(s.blocker));
    if (s.coverage && !s.coverage->complete) {
      std::string why = s.coverage->reason.empty() ? "no reason given" : oneLine(s.coverage->reason);
      raise(v, failOn == FailOn::Never ? "neutral" : "failure",
            "`" + s.step + "` did not review the whole change: " + why);
    }
  }
}

void judgeFindings(Verdict& v, const std::vector<Finding>& findings, FailOn failOn) {
  std::size_t failing = 0;
  for (const Finding& f : findings) failing += failsAt(f.severity, failOn) ? 1 : 0;
  if (failing > 0)
    raise(v, "failure",
          std::to_string(failing) + " finding(s) at the fail level (" + std::string(failOnName(failOn)) + ")");
}

}  // namespace

Verdict judgeStage(const StageResult& stage, const std::vector<StepRow>& steps, FailOn failOn) {
  Verdict v;
  judgeSteps(v, steps, &stage.name, failOn);
  judgeFindings(v, stage.findings, failOn);
  return v;
}

bool stepFailed(const StepRow& s) {
  return s.blocked || (!s.outcome.empty() && s.outcome != "passed" && s.outcome != "skipped");
}

bool reviewedWhole(const PublicationRequest& request) {
  for (const StepRow& s : request.steps)
    if (stepFailed(s) || (s.coverage && !s.coverage->complete)) return false;
  return true;
}

Verdict judgeRun(const PublicationRequest& request) {
  Verdict v;
  judgeSteps(v, request.steps, nullptr, request.options.failOn);
  judgeFindings(v, allFindings(request), request.options.failOn);
  return v;
}

}  // namespace lw::github
