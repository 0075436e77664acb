// Loop detection at the bridge (docs/taskpack.md, "Guardrails"): the same tool with the same
// arguments repeated within a window warns, then stops the step; one tool
// called very often is suspicious, then stops the step. Pure: time comes
// from the injected clock. Not thread-safe (one per step, used under the
// step session's lock).
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "guard/clock.h"
#include "guard/event.h"
#include "policy/model/taskpack.h"

namespace lw::guard {

struct LoopDecision {
  bool stop = false;          // the step must be stopped; the call is refused
  std::vector<Event> events;  // warn / suspicious / stop, in that order
};

class LoopDetector {
 public:
  LoopDetector(LoopGuardrail config, const Clock& clock);

  // Records one call and judges it. With the defaults: the 3rd and 4th
  // identical call within 60 s warn, the 5th stops (LOOP_DETECTED); the 30th
  // call of one tool is suspicious, the 50th stops. `canonicalArgs` must be
  // canonicalJson() of the arguments so that spelling does not matter.
  LoopDecision record(const std::string& tool, const std::string& canonicalArgs);

  // Calls of `tool` recorded so far in this step.
  int callsOf(const std::string& tool) const;

 private:
  LoopGuardrail config_;
  const Clock& clock_;
  std::map<std::string, std::deque<TimePoint>> repeats_;  // key: tool + NUL + digest
  std::map<std::string, int> perTool_;
};

}  // namespace lw::guard
