// The bridge of one step as the pipeline sees it: the descriptor the step
// gets as LOOPWRIGHT_BRIDGE=fd:3, and afterwards what happened on it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/result.h"
#include "guard/event.h"
#include "pipeline/run/run_record.h"

namespace lw::pipeline {

struct BridgeOutcome {
  std::vector<Finding> findings;       // reported through findings.report (not yet accepted)
  std::vector<GuardrailEvent> events;  // warnings and stops, in order
  std::optional<guard::Event> stop;    // the guardrail stop that ended the step
  std::int64_t toolCalls = 0;
  std::int64_t modelCalls = 0;
  std::int64_t tokensUsed = 0;       // model.complete usage, input + output
  std::int64_t inputTokens = 0;      // of which input (prompt)
  std::int64_t outputTokens = 0;     // and output (completion)
  std::vector<std::string> callLog;  // "tool outcome ms" per call: the step's bridge-calls.log
};

// The pipeline's handle on one step's bridge (bridge::StepBridge, adapted in
// bridge_adapter.cpp; a fake in tests): its step end, then its outcome.
class BridgeHandle {
 public:
  virtual ~BridgeHandle() = default;
  // The step's end of the connection (fd form); -1 in the path form.
  virtual int stepFd() const = 0;
  // After launch: the orchestrator keeps only its own end.
  virtual void closeStepEnd() = 0;
  // After the step ended: stops serving and reports.
  virtual BridgeOutcome finish() = 0;
};

}  // namespace lw::pipeline
