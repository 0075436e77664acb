#include "guard/loop_detector.h"

#include <chrono>

#include "guard/canonical_json.h"

namespace lw::guard {

LoopDetector::LoopDetector(LoopGuardrail config, const Clock& clock) : config_(config), clock_(clock) {}

LoopDecision LoopDetector::record(const std::string& tool, const std::string& canonicalArgs) {
  const TimePoint now = clock_.now();
  const auto window = std::chrono::seconds(config_.windowSeconds);
  LoopDecision d;

  // A digest, not the arguments: a step may send megabytes per call, and a
  // 64-bit collision among at most a few thousand calls is negligible.
  auto& times = repeats_[tool + '\0' + fingerprint(canonicalArgs)];
  while (!times.empty() && now - times.front() >= window) times.pop_front();
  times.push_back(now);
  const int repeats = static_cast<int>(times.size());
  const std::string windowText = std::to_string(config_.windowSeconds) + " s";
  if (repeats >= config_.stopRepeats) {
    d.stop = true;
    d.events.push_back(
        {EventKind::Stop, ErrorCode::LoopDetected,
         tool + " called " + std::to_string(repeats) + " times with the same arguments within " + windowText, tool});
  } else if (repeats >= config_.warnRepeats) {
    d.events.push_back({EventKind::Warn, ErrorCode::LoopDetected,
                        tool + " called " + std::to_string(repeats) + " times with the same arguments within " +
                            windowText + " (the step is stopped at " + std::to_string(config_.stopRepeats) + ")",
                        tool});
  }

  const int calls = ++perTool_[tool];
  if (calls == config_.suspiciousCallsPerTool && calls < config_.maxCallsPerTool) {
    d.events.push_back({EventKind::Suspicious, ErrorCode::LoopDetected,
                        tool + " called " + std::to_string(calls) + " times in this step (the step is stopped at " +
                            std::to_string(config_.maxCallsPerTool) + ")",
                        tool});
  }
  if (calls >= config_.maxCallsPerTool) {
    d.stop = true;
    d.events.push_back({EventKind::Stop, ErrorCode::LoopDetected,
                        tool + " called " + std::to_string(calls) + " times in this step (limit " +
                            std::to_string(config_.maxCallsPerTool) + " per tool)",
                        tool});
  }
  return d;
}

int LoopDetector::callsOf(const std::string& tool) const {
  auto it = perTool_.find(tool);
  return it == perTool_.end() ? 0 : it->second;
}

}  // namespace lw::guard
