// What a linter reported, as its output format says it, before paths are
// made repository-relative, severities defaulted and the diff consulted.
// Every parser of src/agents/lint/ returns this, so the rest of builtin/lint
// never depends on the format.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/finding.h"

namespace lw::agents::lint {

// A linter's stdout is read up to this size (builtin/lint refuses more).
constexpr std::size_t kMaxOutputBytes = 16 * 1024 * 1024;
// Past this many diagnostics the rest are counted, not kept.
constexpr std::size_t kMaxDiagnostics = 100000;
// A message longer than this is cut (GitHub's comment limit is 65536).
constexpr std::size_t kMaxMessageBytes = 8192;

struct LintDiagnostic {
  std::string path;                  // as the tool wrote it: relative, absolute or empty
  int line = 0;                      // 1-based; 0 = the whole file
  int endLine = 0;                   // 0 = same as line
  int column = 0;                    // 1-based; 0 = unknown
  std::optional<Severity> severity;  // nullopt: the tool gave none
  std::string rule;                  // the tool's own rule id, may be empty
  std::string message;
  std::optional<std::string> suggestion;  // replaces lines line..endLine
};

struct ParsedOutput {
  std::vector<LintDiagnostic> diagnostics;
  std::size_t ignored = 0;  // unmatched lines, suppressed or passing results
  std::size_t dropped = 0;  // diagnostics past kMaxDiagnostics
};

// A range of text as SARIF and rdjson give it: 1-based, 0 = absent.
struct TextRange {
  int startLine = 0;
  int startColumn = 0;
  int endLine = 0;
  int endColumn = 0;
};

// The suggestion for `d` when replacing `range` by `text` replaces exactly
// d's lines (line..endLine) as whole lines; nullopt for a partial-line edit
// or one on other lines (GitHub suggestions replace whole lines).
std::optional<std::string> suggestionFor(const LintDiagnostic& d, const TextRange& range, std::string text);

// Appends `d` with its message cut to kMaxMessageBytes and made valid UTF-8,
// or counts it in `dropped` once kMaxDiagnostics are kept.
void addDiagnostic(ParsedOutput& out, LintDiagnostic d);

// OUTPUT_INVALID for malformed linter output: "<format> output: <what>",
// located in the output (line/column) or at a JSON/XML path.
Error malformedOutput(std::string_view format, std::string what, Location where);

// OUTPUT_INVALID when the output is larger than kMaxOutputBytes.
Error outputTooLarge(std::string_view format, std::size_t size);

}  // namespace lw::agents::lint
