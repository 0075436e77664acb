#include "agents/lint/lint_diagnostic.h"

#include <utility>

#include "core/json_text.h"

namespace lw::agents::lint {

namespace {

// Cuts at a byte limit without leaving half a UTF-8 sequence behind.
std::string boundedText(std::string_view text) {
  if (text.size() <= kMaxMessageBytes) return repairUtf8(text);
  std::size_t cut = kMaxMessageBytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return repairUtf8(text.substr(0, cut)) + "…";
}

}  // namespace

// A range without end column spans its lines' text without the last
// newline (SARIF §3.30.7, reviewdog's line suggestions); one from column 1
// to column 1 of the line after spans the lines with their newline, so its
// text must end in one, which the suggestion does not repeat.
std::optional<std::string> suggestionFor(const LintDiagnostic& d, const TextRange& range, std::string text) {
  if (range.startLine == 0 || range.startColumn > 1) return std::nullopt;
  int first = range.startLine;
  int last = range.endLine == 0 ? first : range.endLine;
  if (range.endColumn != 0) {
    if (range.endColumn != 1 || last <= first) return std::nullopt;
    if (!text.empty() && text.back() != '\n') return std::nullopt;
    if (!text.empty()) text.pop_back();
    --last;
  }
  int dLast = d.endLine == 0 ? d.line : d.endLine;
  if (first != d.line || last != dLast) return std::nullopt;
  return text;
}

void addDiagnostic(ParsedOutput& out, LintDiagnostic d) {
  if (out.diagnostics.size() >= kMaxDiagnostics) {
    ++out.dropped;
    return;
  }
  d.message = boundedText(d.message);
  d.rule = repairUtf8(d.rule);
  d.path = repairUtf8(d.path);
  if (d.suggestion) d.suggestion = repairUtf8(*d.suggestion);
  out.diagnostics.push_back(std::move(d));
}

Error malformedOutput(std::string_view format, std::string what, Location where) {
  Error e = makeError(ErrorCode::OutputInvalid, std::string(format) + " output: " + what,
                      "check that the linter prints the format named in `with: format`", "builtin/lint");
  if (where.file.empty()) where.file = std::string(format) + " output";
  e.location = std::move(where);
  return e;
}

Error outputTooLarge(std::string_view format, std::size_t size) {
  return makeError(ErrorCode::OutputInvalid,
                   std::string(format) + " output of " + std::to_string(size) + " bytes is larger than the " +
                       std::to_string(kMaxOutputBytes) + " bytes builtin/lint reads",
                   "narrow the linter's scope to the changed files", "builtin/lint");
}

}  // namespace lw::agents::lint
