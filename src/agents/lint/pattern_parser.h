// Lines of plain text by an errorformat-like pattern, for linters that only
// print "file:line:col: message" (shellcheck -f gcc, compilers, ...).
// Directives: %f file, %l line, %e end line, %c column, %s severity,
// %r rule, %m message, %% a percent sign; every other character is itself.
#pragma once

#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "agents/lint/lint_diagnostic.h"
#include "core/result.h"

namespace lw::agents::lint {

// A pattern compiled once to a std::regex matched against whole lines.
class LinePattern {
 public:
  // TASKPACK_INVALID located at the pattern's column for an unknown or
  // repeated directive, a pattern without %f and %m, or a dangling %.
  static Result<LinePattern> compile(std::string_view pattern);

  // The diagnostic a line describes, or nullopt when it does not match.
  std::optional<LintDiagnostic> match(std::string_view line) const;

 private:
  std::regex regex_;
  // The submatch index of each directive, 0 when the pattern has none.
  int file_ = 0, line_ = 0, endLine_ = 0, column_ = 0, severity_ = 0, rule_ = 0, message_ = 0;
};

// Lines longer than this are not matched (std::regex recurses per
// character) and count as ignored.
constexpr std::size_t kMaxPatternLine = 2048;

// Every line of text matched; lines that do not match are counted in
// `ignored`. Fails only when the text is larger than kMaxOutputBytes.
Result<ParsedOutput> parseLines(const LinePattern& pattern, std::string_view text);

// "error", "e", "warning", "w", "note", "info", "n", "i" (any case).
std::optional<Severity> severityWord(std::string_view word);

}  // namespace lw::agents::lint
