#include "pipeline/step/step_settle.h"

#include <iterator>

#include "core/step_label.h"
#include "guard/event.h"
#include "pipeline/step/coverage_output.h"
#include "pipeline/step/egress_denial_notes.h"
#include "pipeline/step/refusal_blocker.h"
#include "verify/outputs/outputs.h"

namespace lw::pipeline {
namespace {

// The precedence table of step_settle.h, in its order.
struct Row {
  Ending ending;
  bool EndingFacts::*applies;
};
constexpr Row kPrecedence[] = {
    {Ending::NotRun, &EndingFacts::notRun},
    {Ending::CheckFailed, &EndingFacts::checkFailed},
    {Ending::Violation, &EndingFacts::violation},
    {Ending::GuardrailStop, &EndingFacts::guardrailStop},
    {Ending::WallTime, &EndingFacts::wallTime},
    {Ending::OutputInvalid, &EndingFacts::outputInvalid},
    {Ending::SupervisorLost, &EndingFacts::supervisorLost},
};

// What the step's outputs held, parsed and masked; `problem` is why the
// last invalid one was rejected.
struct ParsedOutputs {
  std::vector<Finding> findings;
  std::optional<TriageResult> triage;
  std::string problem;
};

template <typename T, typename Parse>
std::optional<T> parseOutput(const std::optional<Result<std::string>>& text, Parse parse, std::string& problem) {
  if (!text) return std::nullopt;
  Result<T> parsed = *text ? parse(**text) : Result<T>(text->error());
  if (!parsed) {
    problem = parsed.error().message;
    return std::nullopt;
  }
  return *parsed;
}

// Findings reported through the bridge and findings.json, and triage.json;
// secrets in them masked, each hit a leak finding.
ParsedOutputs parseOutputs(const StepObservations& seen, const verify::SecretScanner& scanner, StepRecord& rec,
                           std::vector<Finding>& leaks) {
  ParsedOutputs out;
  out.findings = seen.ran->bridged.findings;
  auto findings = parseOutput<std::vector<Finding>>(
      seen.outputs.findings, [&](std::string_view t) { return verify::parseFindings(t, rec.step); }, out.problem);
  if (findings) out.findings.insert(out.findings.end(), findings->begin(), findings->end());
  if (seen.planned->step->uses) {  // a built-in's denied connections, in its own output
    auto notes = egressDenialNotes(seen.egress, rec.step);
    out.findings.insert(out.findings.end(), notes.begin(), notes.end());
  }
  out.triage = parseOutput<TriageResult>(
      seen.outputs.triage, [&](std::string_view t) { return verify::parseTriage(t, rec.step); }, out.problem);
  for (auto& f : out.findings) f.step = rec.step;
  for (const auto& hit : verify::maskFindings(scanner, out.findings))
    leaks.push_back(verify::secretLeakFinding(hit, rec.step, "findings"));
  if (out.triage) {
    auto masked = scanner.scanAndMask(out.triage->comment);
    for (const auto& hit : masked.hits) leaks.push_back(verify::secretLeakFinding(hit, rec.step, "triage.json"));
    out.triage->comment = masked.masked;
  }
  return out;
}

// Secrets masked in the logs, as leak findings.
std::vector<Finding> logLeaks(const WrittenLogs& logs, StepRecord& rec) {
  std::vector<Finding> leaks;
  for (const auto& [log, name] : {std::pair{&logs.stdoutLog, "stdout.log"}, std::pair{&logs.stderrLog, "stderr.log"},
                                  std::pair{&logs.callsLog, "bridge-calls.log"}})
    for (const auto& hit : log->hits) leaks.push_back(verify::secretLeakFinding(hit, rec.step, name));
  rec.stdoutTruncated = logs.stdoutLog.truncated;
  rec.stderrTruncated = logs.stderrLog.truncated;
  return leaks;
}

void recordRun(const StepRun& ran, StepRecord& rec) {
  rec.exitStatus = ran.exit.status();
  rec.timedOut = ran.exit.timedOut;
  rec.descendantsKilled = ran.exit.descendantsKilled;
  rec.sandboxNotes = ran.sandboxNotes;
  rec.guardrails = ran.bridged.events;
  rec.toolCalls = ran.bridged.toolCalls;
  rec.modelCalls = ran.bridged.modelCalls;
  rec.tokensUsed = ran.bridged.tokensUsed;
  rec.inputTokens = ran.bridged.inputTokens;
  rec.outputTokens = ran.bridged.outputTokens;
}

StepRecord identityRecord(const StepObservations& seen) {
  const EffectiveStep& policy = seen.planned->policy;
  StepRecord rec;
  rec.stage = policy.stage;
  rec.step = policy.step;
  rec.role = policy.role;
  rec.networkMode = std::string(toString(policy.sandbox.networkMode));
  rec.outDir = seen.layout.outDir.string();
  rec.stdoutPath = seen.layout.stdoutLog.string();
  rec.stderrPath = seen.layout.stderrLog.string();
  rec.backend = seen.backend;
  rec.enforced = seen.enforced;
  rec.refusals = seen.refusals;
  rec.limits = seen.limits;
  rec.egress = seen.egress;
  rec.durationMs = seen.durationMs;
  return rec;
}

std::string whereKept(const StepLayout& layout) {
  return "output in " + layout.outDir.string() + ", logs in " + layout.stepDir.string();
}

// A violation: the changes are quarantined (and restored when they could
// be); of the outputs only the secret-leak findings are kept.
void quarantine(const verify::CheckReport& report, const StepObservations& seen, std::vector<Finding> leaks,
                StepRecord& rec) {
  const StepLayout& layout = seen.layout;
  rec.violationCode = std::string(codeName(*report.violation));
  rec.quarantineRef = report.quarantineRef;
  rec.repositoryIntact = report.restored;
  rec.blocker = guard::blockerLine(
      "step " + stepLabel(rec.stage, rec.step) + " changed the repository against its role (" + rec.violationCode + ")",
      (report.restored ? "the repository was restored to its state before the step; "
                       : "the repository could NOT be fully restored; ") +
          (report.quarantineRef.empty() ? whereKept(layout) : "the changes are kept under " + report.quarantineRef),
      nextActionFor(seen.planned->step, "inspect the quarantined changes; the step's outputs were not accepted"));
  rec.findings = std::move(leaks);
  rec.message = verify::toError(report).message;
}

// Verified: the outputs are accepted unless one is invalid (secret-leak
// findings always are); coverage is kept either way.
void accept(ParsedOutputs outputs, const verify::CheckReport& report, const OutputFiles& files,
            std::vector<Finding> leaks, StepRecord& rec) {
  rec.outputsAccepted = outputs.problem.empty();
  if (rec.outputsAccepted) {
    rec.findings = std::move(outputs.findings);
    rec.findings.insert(rec.findings.end(), report.findings.begin(), report.findings.end());
    rec.triage = std::move(outputs.triage);
  }
  rec.findings.insert(rec.findings.end(), leaks.begin(), leaks.end());
  if (files.coverage) {
    auto parsed = *files.coverage ? parseCoverage(**files.coverage) : Result<Coverage>(files.coverage->error());
    rec.coverage = parsed ? *parsed : invalidCoverage(parsed.error());
  }
}

// A guardrail stop or the wall time: BLOCKER. The wall-time stop is a
// guardrail event of its own, at the time the step was killed.
void block(const StepRun& ran, const StepObservations& seen, StepRecord& rec) {
  if (ran.bridged.stop) {
    rec.message = "step " + stepLabel(rec.stage, rec.step) + " was stopped by " +
                  std::string(codeName(ran.bridged.stop->code)) + " (" + ran.bridged.stop->message + ")";
  } else {
    rec.message = "step " + stepLabel(rec.stage, rec.step) + " ran past its wall time of " +
                  std::to_string(seen.planned->policy.limits.wallTimeMs) + " ms (BUDGET_EXCEEDED)";
    rec.guardrails.push_back({"stop", "BUDGET_EXCEEDED", "wall time exceeded", ran.endedAtMs});
  }
  rec.blocker = guard::blockerLine(rec.message, whereKept(seen.layout),
                                   nextActionFor(seen.planned->step,
                                                 "look at the step's calls in its logs; raise the limit only if "
                                                 "the work is legitimate, otherwise fix the agent's loop"));
}

EndingFacts factsOf(const StepObservations& seen, const std::string& outputProblem) {
  EndingFacts f;
  f.notRun = seen.notRun.has_value();
  if (f.notRun) return f;
  f.checkFailed = !seen.check || !*seen.check;
  if (f.checkFailed) return f;
  f.violation = !(*seen.check)->ok();
  f.guardrailStop = seen.ran->bridged.stop.has_value();
  f.wallTime = seen.ran->exit.timedOut;
  f.outputInvalid = !outputProblem.empty();
  f.supervisorLost = !seen.ran->exit.supervisorLost.empty();
  f.exitStatus = seen.ran->exit.status();
  return f;
}

// The message of the endings that say no more than it.
std::string messageOf(Ending ending, const StepRun& ran, const std::string& outputProblem) {
  switch (ending) {
    case Ending::OutputInvalid: return "OUTPUT_INVALID: " + outputProblem;
    case Ending::SupervisorLost: return ran.exit.supervisorLost;
    case Ending::NonZeroExit: return "exited with status " + std::to_string(ran.exit.status());
    default: return "";
  }
}

}  // namespace

Ending endingOf(const EndingFacts& facts) {
  for (const Row& row : kPrecedence)
    if (facts.*row.applies) return row.ending;
  return facts.exitStatus != 0 ? Ending::NonZeroExit : Ending::Clean;
}

StepOutcome outcomeOf(Ending ending, StepOutcome notRunOutcome) {
  switch (ending) {
    case Ending::NotRun: return notRunOutcome;
    case Ending::CheckFailed: return StepOutcome::Error;
    case Ending::Violation: return StepOutcome::Quarantined;
    case Ending::GuardrailStop:
    case Ending::WallTime: return StepOutcome::Blocked;
    case Ending::OutputInvalid:
    case Ending::SupervisorLost:
    case Ending::NonZeroExit: return StepOutcome::Failed;
    case Ending::Clean: return StepOutcome::Passed;
  }
  return StepOutcome::Error;
}

StepRecord settleStep(const StepObservations& seen, const verify::SecretScanner& scanner) {
  StepRecord rec = identityRecord(seen);
  if (seen.notRun) {
    rec.outcome = seen.notRun->outcome;
    rec.message = seen.notRun->message;
    rec.blocker = seen.notRun->blocker;
    return rec;
  }
  recordRun(*seen.ran, rec);
  std::vector<Finding> leaks = logLeaks(seen.logs, rec);
  const bool checked = seen.check && *seen.check;
  ParsedOutputs outputs = checked ? parseOutputs(seen, scanner, rec, leaks) : ParsedOutputs{};
  rec.secretsMasked = leaks.size();
  const Ending ending = endingOf(factsOf(seen, outputs.problem));
  rec.outcome = outcomeOf(ending, StepOutcome::Error);
  if (!checked) {
    rec.repositoryIntact = false;
    rec.message = "verification: " + (seen.check ? seen.check->error().message : std::string("not reached"));
    return rec;
  }
  const verify::CheckReport& report = **seen.check;
  rec.verificationReport = verify::toJson(report, *seen.baseline);
  rec.verification = verify::verificationOf(report);
  if (ending == Ending::Violation) {
    quarantine(report, seen, std::move(leaks), rec);
    return rec;
  }
  const std::string outputProblem = outputs.problem;
  accept(std::move(outputs), report, seen.outputs, std::move(leaks), rec);
  if (ending == Ending::GuardrailStop || ending == Ending::WallTime)
    block(*seen.ran, seen, rec);
  else
    rec.message = messageOf(ending, *seen.ran, outputProblem);
  return rec;
}

}  // namespace lw::pipeline
