// A reviewing step's coverage.json: validated against
// schemas/coverage.schema.json and turned into Coverage. A step that
// writes a coverage it cannot stand behind (invalid, or paths outside the
// repository) is read as a review that covered nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/step_coverage.h"

namespace lw::pipeline {

// A coverage.json larger than this is refused before it is read.
inline constexpr std::size_t kMaxCoverageBytes = 1u << 20;

// Fails with OUTPUT_INVALID naming the JSON path of the first error.
Result<Coverage> parseCoverage(std::string_view jsonText);

// What the record keeps when coverage.json was present but invalid: an
// incomplete coverage whose reason names the problem.
Coverage invalidCoverage(const Error& why);

}  // namespace lw::pipeline
