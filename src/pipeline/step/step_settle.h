// settleStep: the StepRecord of one step from what its effects observed.
// Pure: which outcome wins is the precedence table below, not the order of
// the effects; outputs are parsed, masked and accepted here too.
//
// Precedence of outcomes (the first row that applies decides; endingOf):
//
//   | ending          | when                                          | outcome     |
//   |-----------------|-----------------------------------------------|-------------|
//   | NotRun          | refused (negotiation, command) or not         | Refused or  |
//   |                 | prepared/launched (dirs, baseline, bridge)    | Error       |
//   | CheckFailed     | the verification could not run                | Error       |
//   | Violation       | the verification found a violation            | Quarantined |
//   | GuardrailStop   | a guardrail stopped the step                  | Blocked     |
//   | WallTime        | the step ran past its wall time               | Blocked     |
//   | OutputInvalid   | findings.json or triage.json is invalid       | Failed      |
//   | SupervisorLost  | the step's supervisor died or was stopped     | Failed      |
//   | NonZeroExit     | the step exited with a status other than 0    | Failed      |
//   | Clean           | otherwise                                     | Passed      |
//
// So a violation outranks a stop (a stopped step that changed the
// repository is quarantined), and a blocked step keeps its verified outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/result.h"
#include "pipeline/run/run_plan.h"
#include "pipeline/run/run_record.h"
#include "pipeline/step/bridge_handle.h"
#include "pipeline/step/step_plan.h"
#include "sandbox/process/spawn.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"
#include "verify/secrets/secret_scanner.h"

namespace lw::pipeline {

enum class Ending {
  NotRun,
  CheckFailed,
  Violation,
  GuardrailStop,
  WallTime,
  OutputInvalid,
  SupervisorLost,
  NonZeroExit,
  Clean
};

// The facts the precedence table reads.
struct EndingFacts {
  bool notRun = false;
  bool checkFailed = false;
  bool violation = false;
  bool guardrailStop = false;
  bool wallTime = false;
  bool outputInvalid = false;
  bool supervisorLost = false;
  int exitStatus = 0;
};

// The first row of the table above that applies.
Ending endingOf(const EndingFacts& facts);
// The outcome of `ending`; NotRun's is the one the failure carries.
StepOutcome outcomeOf(Ending ending, StepOutcome notRunOutcome);

// Why a step never ran: refused by its sandbox or its command (Refused), or
// loopwright could not prepare or launch it (Error).
struct NotRun {
  StepOutcome outcome = StepOutcome::Error;
  std::string message;
  std::string blocker;  // the BLOCKER line of a refusal by negotiation
};

// What the launched step did.
struct StepRun {
  sandbox::process::ExitInfo exit;
  std::int64_t endedAtMs = 0;  // since the step started, when it ended or was killed
  // What the backend's planner could not give as asked (RunningProcess::planNotes).
  std::vector<std::string> sandboxNotes;
  BridgeOutcome bridged;
};

// One log as written (masked): what was masked, and whether it was cut.
struct WrittenLog {
  std::vector<verify::SecretHit> hits;
  bool truncated = false;
};
struct WrittenLogs {
  WrittenLog stdoutLog, stderrLog, callsLog;
};

// The output files found in LOOPWRIGHT_OUT, read bounded; nullopt when
// absent (or, for coverage, not read because the step was quarantined).
struct OutputFiles {
  std::optional<Result<std::string>> findings, triage, coverage;
};

// Everything the effects of runStep observed, filled in as far as the step
// got: `notRun` ends it early; `ran`, `logs`, `check` and `outputs` follow.
struct StepObservations {
  const PlannedStep* planned = nullptr;
  StepLayout layout;
  std::string backend;                // empty until negotiated
  std::vector<std::string> enforced;  // capabilities the backend enforces
  std::vector<std::string> refusals;  // backends tried first, and why
  boost::json::value limits;          // how each resource limit is held
  boost::json::value egress;          // allow-list: the egress proxy's decisions
  std::optional<NotRun> notRun;
  std::optional<StepRun> ran;
  WrittenLogs logs;
  std::optional<Result<verify::CheckReport>> check;
  const verify::Baseline* baseline = nullptr;  // what `check` compared with
  OutputFiles outputs;
  std::int64_t durationMs = 0;
};

// The record of the step. `scanner` masks its findings and triage comment.
StepRecord settleStep(const StepObservations& seen, const verify::SecretScanner& scanner);

}  // namespace lw::pipeline
