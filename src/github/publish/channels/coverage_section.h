// The coverage part of the step summary: per reviewing step, how many files
// it reviewed, clipped and skipped, and a collapsible list of them with the
// reasons; the tokens the run's model calls used. Pure Markdown, bounded.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "github/publish/publication.h"

namespace lw::github {

// Files listed per step; the rest are counted in a note.
inline constexpr std::size_t kCoverageRowsPerStep = 300;

// "" when no step wrote a coverage and no tokens were used.
std::string coverageMarkdown(const std::vector<StepRow>& steps);

// "3 reviewed, 1 clipped, 2 skipped (since 0123456789ab); complete" or
// "...; incomplete: <reason>".
std::string coverageCounts(const Coverage& c);

}  // namespace lw::github
