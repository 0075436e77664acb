#include "pipeline/publication_builder.h"

#include "github/conclusion.h"
#include "github/resolve_plan.h"
#include "verify/secret_scanner.h"

namespace lw::pipeline {

namespace {

// The step runner masks the comment with the run's own secrets; the reasons
// and labels are step-written text too, masked here for the known token
// shapes (github/ cannot reach verify/, so the publisher's neutraliser does
// not mask).
TriageResult maskedTriage(TriageResult t) {
  static const verify::SecretScanner scanner;
  for (auto& d : t.duplicates) d.reason = scanner.scanAndMask(d.reason).masked;
  for (auto& l : t.labels) l = scanner.scanAndMask(l).masked;
  return t;
}

github::StepRow stepRow(const StepRecord& s) {
  github::StepRow row;
  row.stage = s.stage;
  row.step = s.step;
  row.backend = s.backend.empty() ? "(none)" : s.backend;
  row.capabilities = s.enforced;
  row.durationMs = s.durationMs;
  row.exitCode = s.exitStatus;
  for (const GuardrailEvent& e : s.guardrails) row.guardrailEvents.push_back(e.kind + " " + e.code + ": " + e.message);
  row.blocked = !s.blocker.empty();
  row.blocker = s.blocker.empty() && s.outcome != StepOutcome::Passed
                    ? std::string(toString(s.outcome)) + ": " + s.message
                    : s.blocker;
  row.outcome = std::string(toString(s.outcome));
  row.coverage = s.coverage;
  row.tokensUsed = s.tokensUsed;
  return row;
}

// The stages that ran, each with its findings, and a row per step of them.
void addStages(const RunRecord& run, std::vector<github::StageResult>& stages, std::vector<github::StepRow>& rows) {
  for (const StageRecord& stage : run.stages) {
    if (!stage.ran) continue;
    github::StageResult result{stage.name, {}};
    for (const StepRecord& s : stage.steps) {
      result.findings.insert(result.findings.end(), s.findings.begin(), s.findings.end());
      rows.push_back(stepRow(s));
    }
    stages.push_back(std::move(result));
  }
}

}  // namespace

github::Verdict judgeRecord(const RunRecord& run, FailOn failOn) {
  std::vector<github::StageResult> stages;
  std::vector<github::StepRow> rows;
  addStages(run, stages, rows);
  return github::judgeRun(stages, rows, failOn);
}

github::PublicationRequest toPublicationRequest(const RunRecord& run,
                                                const github::GithubEvent& event,
                                                const Publication& options) {
  github::PublicationRequest req;
  req.id = run.runId;
  req.repo = event.repository;
  req.number = event.number;
  req.isPullRequest = event.isPullRequest;
  req.headSha = event.headSha;
  req.options = options;
  addStages(run, req.stages, req.steps);
  for (const StageRecord& stage : run.stages)
    for (const StepRecord& s : stage.steps)
      if (stage.ran && s.triage) req.triage.push_back(maskedTriage(*s.triage));
  req.conclusion = std::string(toString(github::judgeRun(req).conclusion));
  if (auto scope = github::resolveScope(req.steps, !run.incrementalFrom.empty()))
    req.reviewedFiles = std::vector<std::string>(scope->begin(), scope->end());
  return req;
}

}  // namespace lw::pipeline
