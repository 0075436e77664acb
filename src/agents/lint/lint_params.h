// builtin/lint's `with:` (policy/builtin/builtin_catalog.cpp lists them with their
// defaults), read into a struct once, with the line pattern compiled.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "agents/lint/diff_filter.h"
#include "agents/lint/pattern_parser.h"
#include "core/finding.h"
#include "core/result.h"

namespace lw::agents::lint {

enum class OutputFormat { Sarif, Rdjson, Rdjsonl, Checkstyle, Pattern };

struct LintParams {
  std::vector<std::string> command;
  OutputFormat format = OutputFormat::Sarif;
  std::string formatName;
  std::optional<LinePattern> pattern;  // format: pattern only
  FilterMode filterMode = FilterMode::Added;
  Severity severity = Severity::Warning;
  std::string rulePrefix = "lint";
  std::size_t maxFindings = 200;
};

// TASKPACK_INVALID naming the parameter (with.<name>) that is missing or of
// the wrong type, or a pattern that does not compile.
Result<LintParams> readLintParams(const boost::json::object& with);

// The linter's stdout read as `params.format` says.
Result<ParsedOutput> parseOutput(const LintParams& params, std::string_view text);

}  // namespace lw::agents::lint
