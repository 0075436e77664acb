// What builtin/review accepts from the model: one JSON object
// {"findings":[{path, startLine, endLine, severity, rule, message,
// suggestion?, confidence}]} and nothing else (a ```json fence around it is
// tolerated). Every field is checked: types, bounds, lengths, the severity
// vocabulary. One bad field makes the whole answer invalid: it is retried or
// reported, never published in part. A well-formed finding on a file that
// is not among those of the chunk the model was shown is off the change: it
// is set aside (the step records it as dropped), the rest of the answer kept.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/result.h"

namespace lw::agents::review {

// The contract's bounds; the prompt states them from here.
inline constexpr std::size_t kMaxFindingsPerAnswer = 50;
inline constexpr std::size_t kMaxMessageBytes = 2000;
inline constexpr std::size_t kMaxSuggestionBytes = 4000;
inline constexpr std::size_t kMaxRuleBytes = 64;
inline constexpr int kMaxLine = 10'000'000;
inline constexpr int kMaxSpan = 500;  // endLine - startLine

struct ModelFinding {
  std::string path;
  int startLine = 0;
  int endLine = 0;
  Severity severity = Severity::Warning;
  std::string rule;  // kebab-case, without the "review/" prefix
  std::string message;
  std::optional<std::string> suggestion;
  double confidence = 0;
};

struct ModelAnswer {
  std::vector<ModelFinding> findings;   // on the chunk's files
  std::vector<ModelFinding> offChange;  // well-formed, on a file the chunk does not hold
};

// The findings in `text`. OUTPUT_INVALID when it is not the contract: the
// message names the first problem, `diagnostics` every problem with its
// JSON path (findings[2].startLine), for the correction sent to the model.
// `truncated`: the model stopped at its token limit, so the answer is
// partial whatever it looks like.
Result<ModelAnswer> parseModelOutput(std::string_view text, const std::vector<std::string>& chunkPaths, bool truncated);

// The JSON inside a ```json (or bare ```) fence that is the whole text;
// `text` trimmed when it has no such fence.
std::string_view stripJsonFence(std::string_view text);

}  // namespace lw::agents::review
