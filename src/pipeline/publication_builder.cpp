#include "pipeline/publication_builder.h"

#include "github/conclusion.h"
#include "github/resolve_plan.h"

namespace lw::pipeline {

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
  for (const StageRecord& stage : run.stages) {
    if (!stage.ran) continue;
    github::StageResult result{stage.name, {}};
    for (const StepRecord& s : stage.steps) {
      result.findings.insert(result.findings.end(), s.findings.begin(), s.findings.end());
      if (s.triage) req.triage.push_back(*s.triage);
      github::StepRow row;
      row.stage = s.stage;
      row.step = s.step;
      row.backend = s.backend.empty() ? "(none)" : s.backend;
      row.capabilities = s.enforced;
      row.durationMs = s.durationMs;
      row.exitCode = s.exitStatus;
      for (const GuardrailEvent& e : s.guardrails)
        row.guardrailEvents.push_back(e.kind + " " + e.code + ": " + e.message);
      row.blocked = !s.blocker.empty();
      row.blocker = s.blocker.empty() && s.outcome != StepOutcome::Passed
                        ? std::string(toString(s.outcome)) + ": " + s.message
                        : s.blocker;
      row.outcome = std::string(toString(s.outcome));
      row.coverage = s.coverage;
      row.tokensUsed = s.tokensUsed;
      req.steps.push_back(std::move(row));
    }
    req.stages.push_back(std::move(result));
  }
  req.conclusion = github::judgeRun(req).conclusion;
  if (auto scope = github::resolveScope(req.steps, !run.incrementalFrom.empty()))
    req.reviewedFiles = std::vector<std::string>(scope->begin(), scope->end());
  return req;
}

}  // namespace lw::pipeline
