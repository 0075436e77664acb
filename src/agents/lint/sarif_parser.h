// SARIF 2.1.0 (OASIS), as static analyzers print it (clang --analyze
// --analyzer-output sarif, CodeQL, Semgrep, ...): every run's results, with
// the rule from ruleId / rule.id / ruleIndex, the level or the rule's
// defaultConfiguration.level, message.text or the rule's messageStrings,
// the first location (uriBaseId and file:// URIs resolved, %-decoded), and
// a fix that replaces whole lines as a suggestion.
#pragma once

#include <string_view>

#include "agents/lint/lint_diagnostic.h"
#include "core/result.h"

namespace lw::agents::lint {

// Results suppressed (an accepted suppression) or of kind pass /
// notApplicable are counted in `ignored`. Fails with OUTPUT_INVALID, located
// at the line:column of text that is not JSON or at the JSON path of a
// member of the wrong type.
Result<ParsedOutput> parseSarif(std::string_view text);

}  // namespace lw::agents::lint
