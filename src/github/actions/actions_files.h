// The files the Actions runner reads after a step: GITHUB_OUTPUT (step
// outputs) and GITHUB_STEP_SUMMARY (Markdown shown on the run page). Paths
// are parameters; only the CLI reads them from the environment.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace lw::github {

// GitHub refuses a step summary over 1 MiB.
inline constexpr std::size_t kMaxStepSummaryBytes = 1024 * 1024;

// "name<<DELIM\nvalue\nDELIM\n" with `delimiter`; the caller guarantees the
// delimiter occurs in neither. Values may span lines.
std::string formatOutput(const std::string& name, const std::string& value, const std::string& delimiter);

// A delimiter "ghadelimiter_<random hex>" (the actions/toolkit form) that
// occurs in none of `texts`.
std::string heredocDelimiter(const std::vector<std::string>& texts);

// Appends the outputs to the GITHUB_OUTPUT file, each with a fresh random
// delimiter. Fails with IO_ERROR naming the file; fails with USAGE_ERROR on
// an output name that is empty or has '=' or a newline.
Status appendOutputs(const std::string& path, const std::vector<std::pair<std::string, std::string>>& outputs);

// Appends Markdown to the GITHUB_STEP_SUMMARY file. Fails with IO_ERROR, or
// with PUBLICATION_FAILED when the file would exceed 1 MiB (nothing written).
Status appendStepSummary(const std::string& path, const std::string& markdown);

}  // namespace lw::github
