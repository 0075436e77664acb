// reviewdog's Diagnostic Format (proto/rdf in reviewdog/reviewdog): rdjson
// is one DiagnosticResult object ({source, severity, diagnostics: [...]}),
// rdjsonl one Diagnostic object per line. Each diagnostic gives
// location.path, location.range.start/end (line, column), severity (ERROR,
// WARNING, INFO, UNKNOWN_SEVERITY), code.value, message and suggestions
// (range + text).
#pragma once

#include <string_view>

#include "agents/lint/lint_diagnostic.h"
#include "core/result.h"

namespace lw::agents::lint {

// OUTPUT_INVALID at the line:column of text that is not JSON, or at the
// JSON path of a member of the wrong type.
Result<ParsedOutput> parseRdjson(std::string_view text);

// Blank lines are skipped; an error names the line of the output it is on.
Result<ParsedOutput> parseRdjsonl(std::string_view text);

}  // namespace lw::agents::lint
