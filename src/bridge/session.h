// The bridge of one step without its socket: each line the step sends goes
// in, the line to answer (if any) comes out. MCP's initialize, ping,
// tools/list (only the step's granted tools) and tools/call, where every
// call passes the guardrails (budgets, loop detection) before the grant
// check and the handler. Every call is recorded for the run record.
// Thread-safe: a path socket may carry several connections of one step.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bridge/tool_registry.h"
#include "guard/budget_meter.h"
#include "guard/clock.h"
#include "guard/loop_detector.h"
#include "policy/model/taskpack.h"

namespace lw::bridge {

// The protocol revisions answered as asked; any other gets the newest.
inline constexpr std::string_view kProtocolVersions[] = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"};

// The tools a step may call: findings.report and github.event always (its
// own output and the event it already has), model.complete when it has a
// lane, what its `tools:` lists, and a built-in step's catalogue tools.
std::vector<std::string> grantsFor(const Step& step);

enum class CallOutcome {
  Ok,          // the handler returned a result
  ToolError,   // the handler returned an error (isError: true)
  NotGranted,  // unknown or not granted: refused
  Invalid,     // arguments not matching the input schema
  Refused,     // a guardrail (stop, breaker) refused it
};
std::string_view toString(CallOutcome o);

struct CallRecord {
  std::string tool;
  std::string argsDigest;  // guard::fingerprint of the canonical arguments
  std::chrono::milliseconds duration{0};
  CallOutcome outcome = CallOutcome::Ok;
  std::string detail;  // the error message, when not Ok
  std::vector<guard::Event> events;
};

// A tools/call request as read: the tool's name, its arguments and their
// canonical JSON (what the guardrails compare and charge).
struct ToolCall {
  std::string name;
  boost::json::object args;
  std::string canonical;
};

struct SessionOptions {
  std::string step;  // "stage/step", for messages and ToolContext
  std::vector<std::string> grants;
  LoopGuardrail loop;
  // Both called on the bridge thread, outside the session's lock.
  std::function<void(const guard::Event&)> onEvent;  // every guardrail event, stops included
  std::function<void(const guard::Event&)> onStop;   // once, when the step must be stopped
};

class Session {
 public:
  // `tools`, `budget` and `clock` must outlive the session.
  Session(SessionOptions options, const ToolRegistry& tools, guard::BudgetMeter& budget, const guard::Clock& clock);

  // Answers one line (without its newline); nullopt for notifications and
  // blank lines. Never throws.
  std::optional<std::string> handle(std::string_view line);
  // The answer owed for a line longer than kMaxMessageBytes (not read whole).
  std::string tooLarge(std::size_t bytesSoFar);

  // The calls the guardrails saw, up to and including the one that stopped
  // the step.
  std::vector<CallRecord> records() const;
  // Calls made after the stop (refused, while the kill lands): how many
  // depends on timing, so they are counted here, not recorded as calls.
  std::size_t refusedAfterStop() const;
  // The stop that ended the step, if any.
  std::optional<guard::Event> stopped() const;

 private:
  // What the guardrails said before the call ran: the stop latched by an
  // earlier call, or the stop this call brings.
  struct Charge {
    std::optional<guard::Event> latched;
    std::optional<guard::Event> stop;
  };

  std::string callTool(const boost::json::value& id, const boost::json::value& params);
  // Charges the call to the budget and the loop detector, under the lock.
  // `grantedTool` is null when the call will be refused.
  Charge charge(const ToolCall& call, const Tool* grantedTool, CallRecord& rec);
  // Runs a granted, valid call and records how it ended.
  std::string runTool(const boost::json::value& id, const Tool& tool, const ToolCall& call, CallRecord rec,
                      guard::TimePoint start);
  // Records the call and its events, latches a stop, then tells the callbacks.
  void finish(CallRecord record, const std::optional<guard::Event>& stop);

  SessionOptions options_;
  const ToolRegistry& tools_;
  guard::BudgetMeter& budget_;
  const guard::Clock& clock_;
  mutable std::mutex mu_;
  guard::LoopDetector loop_;
  std::vector<CallRecord> records_;
  std::size_t refusedAfterStop_ = 0;
  std::optional<guard::Event> stopped_;
};

}  // namespace lw::bridge
