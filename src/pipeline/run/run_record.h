// What a run did, step by step: the run record written as run.json and the
// human summary. Everything a reviewer needs to trust (or distrust) a result
// is here: backend, capabilities enforced, guardrail events, verification.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/finding.h"
#include "core/step_coverage.h"
#include "github/publish/conclusion.h"
#include "policy/model/taskpack.h"
#include "policy/model/vocabulary.h"
#include "verify/check/check.h"

namespace lw::pipeline {

// How a step ended: the vocabulary the run's conclusion is decided in.
using github::StepOutcome;

struct GuardrailEvent {
  std::string kind;  // warn | suspicious | stop | open | close | escalate
  std::string code;  // LOOP_DETECTED, BUDGET_EXCEEDED, BREAKER_OPEN, …
  std::string message;
  std::int64_t atMs = 0;  // since the step started
};

// The task contract's validate command, run in its own sandbox on the
// author's worktree after the step (docs/taskpack.md, "Task contract"):
// passed only on exit 0 within the step's wall time.
struct ValidationRun {
  std::vector<std::string> command;  // the argv as the taskpack wrote it
  int exitStatus = -1;
  bool timedOut = false;
  std::int64_t wallTimeMs = 0;  // the limit it ran under (the step's)
  bool passed = false;
  std::int64_t durationMs = 0;
  std::string stdoutPath, stderrPath;  // <stepDir>/validate/*.log, masked
  std::size_t secretsMasked = 0;
  std::string error;  // why it could not be launched; empty when it ran
};

// What an author step changed in its own worktree (docs/author-steps.md):
// the patch against the commit the worktree was checked out at, its size,
// and whether it may be published. Set only for author steps that ran.
struct AuthorChange {
  std::string baseCommit;          // the head the worktree was checked out at
  std::string patchFile;           // <stepDir>/change.patch, `git diff --binary` format
  std::vector<std::string> paths;  // changed paths, repository-relative, sorted
  std::int64_t filesChanged = 0;
  std::int64_t linesAdded = 0;
  std::int64_t linesDeleted = 0;
  std::vector<std::string> binaryPaths;  // the changed paths diffed as binary, sorted
  std::int64_t binaryBytes = 0;          // their sizes before and after the change, summed
  // Verification, the task contract and its validate command all passed:
  // only then is the patch published.
  bool accepted = false;
  std::string refusedBecause;               // why not accepted, with the numbers
  std::optional<ValidationRun> validation;  // the contract's validate run, when it ran
};

// A stopped step's escalation (docs/taskpack.md, "Isolation and
// escalation"): what stopped it and whether it was run once more at a higher
// isolation level. When re-run, the rest of the StepRecord is the re-run's
// and the first attempt is summed up here.
struct StepEscalation {
  Isolation from = Isolation::L1;
  Isolation to = Isolation::L2;
  std::string trigger;  // BREAKER_OPEN, LOOP_DETECTED, BUDGET_EXCEEDED, TIMEOUT
  bool rerun = false;
  std::string notRerunBecause;  // when !rerun
  StepOutcome firstOutcome = StepOutcome::Blocked;
  std::string firstBackend;
  std::string firstBlocker;
  std::string firstOutDir;  // the first attempt's step directory, kept
  std::int64_t firstDurationMs = 0;
};

struct StepRecord {
  std::string stage;
  std::string step;
  Role role = Role::Reviewer;
  StepOutcome outcome = StepOutcome::Error;
  std::string backend;                // empty when refused
  std::vector<std::string> enforced;  // capabilities the backend enforced here
  std::vector<std::string> refusals;  // "<backend>: <why>" for those tried first
  std::string networkMode;
  int exitStatus = -1;
  bool timedOut = false;
  std::optional<int> descendantsKilled;  // see process::ExitInfo
  // How each resource limit was held (sandbox/limits/limits_json.h), or null.
  boost::json::value limits;
  // networkMode allow-list: every connection the step asked the egress
  // proxy for, allowed or denied (egress/connection_record.h); else null.
  boost::json::value egress;
  // What the backend's planner could not give as asked (RunningProcess::planNotes).
  std::vector<std::string> sandboxNotes;
  std::int64_t durationMs = 0;
  std::vector<GuardrailEvent> guardrails;
  std::int64_t toolCalls = 0;
  std::int64_t modelCalls = 0;
  // Tokens of the step's model.complete answers (input + output), as the
  // lanes reported them through the bridge.
  std::int64_t tokensUsed = 0;
  std::int64_t inputTokens = 0;   // of which input (prompt) tokens
  std::int64_t outputTokens = 0;  // and output (completion) tokens
  // What a reviewing step says it covered (coverage.json); nullopt when it
  // wrote none. An invalid file is kept as an incomplete coverage saying so.
  std::optional<Coverage> coverage;
  // Verification: "passed", "violation", "not-run" (with why in `message`).
  verify::Verification verification = verify::Verification::NotRun;
  std::string violationCode;
  std::string quarantineRef;
  // False when the step may have left the repository other than its role
  // allows: a violation that could not be undone, or a check that could not
  // run. No later stage runs on such a repository.
  bool repositoryIntact = true;
  boost::json::value verificationReport;  // verify::toJson(CheckReport) or null
  std::vector<Finding> findings;          // accepted only after verification
  std::optional<TriageResult> triage;
  std::optional<AuthorChange> change;        // author steps: what they proposed
  std::optional<StepEscalation> escalation;  // set when an escalation trigger stopped it
  bool outputsAccepted = false;
  std::size_t secretsMasked = 0;
  std::string blocker;  // the BLOCKER: line when blocked, quarantined or refused
  std::string message;  // what went wrong, for Error/Refused/Failed
  std::string outDir;   // LOOPWRIGHT_OUT as kept after the run
  std::string stdoutPath, stderrPath;
  bool stdoutTruncated = false, stderrTruncated = false;
};

struct StageRecord {
  std::string name;
  bool ran = false;
  std::string skippedBecause;
  // Wall time from the stage's provisioning to its last step's verification.
  double durationMs = 0;
  std::vector<StepRecord> steps;
};

struct RunRecord {
  std::string runId;
  std::string taskpack;
  std::string eventName;
  std::string eventAction;
  std::string repo;
  std::string outDir;     // where run.json, logs and outputs are (runner-local)
  std::string startedAt;  // UTC, ISO 8601
  std::int64_t durationMs = 0;
  std::vector<StageRecord> stages;
  std::vector<std::string> skippedStages;  // not selected by the event
  // The head an earlier run reviewed (pull_request.synchronize): the steps
  // were asked to review only what changed since. Empty: the whole change.
  std::string incrementalFrom;
};

// Tokens of every step's model calls.
std::int64_t tokensUsed(const RunRecord& run);

boost::json::value toJson(const StepRecord& step);
boost::json::value toJson(const RunRecord& run);

// A few lines per step for the terminal.
std::string humanSummary(const RunRecord& run);

}  // namespace lw::pipeline
