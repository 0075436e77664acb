#include "pipeline/publication_builder.h"

#include <cstring>
#include <utility>

#include "github/publish/channels/resolve_plan.h"
#include "github/publish/conclusion.h"
#include "pipeline/author/proposed_changes.h"
#include "verify/secrets/secret_scanner.h"

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

// A BLOCKER names where a step's output and logs are kept: paths on the
// runner, which mean nothing on GitHub (the runner's temporary directory is
// gone after the job) and say how the runner is laid out. What is published
// names the run's out dir and the checkout instead; run.json keeps the paths.
std::string withoutRunnerPaths(std::string text, const RunRecord& run) {
  for (const auto& [path, name] : {std::pair{run.outDir, "<run out dir>"}, std::pair{run.repo, "<checkout>"}}) {
    if (path.empty()) continue;
    for (auto at = text.find(path); at != std::string::npos; at = text.find(path, at + std::strlen(name)))
      text.replace(at, path.size(), name);
  }
  return text;
}

github::StepRow stepRow(const StepRecord& s, const RunRecord& run) {
  github::StepRow row;
  row.stage = s.stage;
  row.step = s.step;
  row.backend = s.backend.empty() ? "(none)" : s.backend;
  row.capabilities = s.enforced;
  row.durationMs = s.durationMs;
  row.exitCode = s.exitStatus;
  for (const GuardrailEvent& e : s.guardrails) row.guardrailEvents.push_back(e.kind + " " + e.code + ": " + e.message);
  row.blocked = !s.blocker.empty();
  row.blocker = withoutRunnerPaths(s.blocker.empty() && s.outcome != StepOutcome::Passed
                                       ? std::string(toString(s.outcome)) + ": " + s.message
                                       : s.blocker,
                                   run);
  row.outcome = s.outcome;
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
      rows.push_back(stepRow(s, run));
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

github::PublicationRequest toPublicationRequest(const RunRecord& run, const github::GithubEvent& event,
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
  if (auto scope = github::resolveScope(req.steps, !run.incrementalFrom.empty()))
    req.reviewedFiles = std::vector<std::string>(scope->begin(), scope->end());
  addProposedChanges(
      run, readPatchFile, [&](const std::string& p) { return withoutRunnerPaths(p, run); }, req);
  if (options.patches == PatchPublication::None) req.changes.clear();  // refusals stay noted
  return req;
}

}  // namespace lw::pipeline
