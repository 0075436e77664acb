// A step's outputs (findings.json, triage.json): validated against the
// schemas in schemas/, then turned into the shared models. Anything invalid
// is rejected whole with OUTPUT_INVALID and the path of the first error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/result.h"

namespace lw::verify {

// The schema texts: schemas/findings.schema.json and
// schemas/triage.schema.json, compiled in at build time.
std::string_view findingsSchemaText();
std::string_view triageSchemaText();

// Outputs larger than this are refused before parsing.
inline constexpr std::size_t kMaxOutputBytes = 4u << 20;

// `source` names the file in errors ("findings.json"). Findings get `step`.
Result<std::vector<Finding>> parseFindings(std::string_view jsonText, const std::string& step,
                                           const std::string& source = "findings.json");
Result<TriageResult> parseTriage(std::string_view jsonText, const std::string& step,
                                 const std::string& source = "triage.json");

}  // namespace lw::verify
