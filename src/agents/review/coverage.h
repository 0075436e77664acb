// What builtin/review covered, file by file (coverage.json in the step's out
// dir): the publisher puts it in the summary and the run record, and a
// review that could not cover the diff is never a silent green.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/step_coverage.h"

namespace lw::agents::review {

// A file's row is the publisher's own (core/step_coverage.h), so the two
// cannot drift apart; the reason is empty for a file reviewed whole.
using CoverageStatus = FileReview;
using FileCoverage = lw::FileCoverage;

struct Coverage {
  std::vector<FileCoverage> files;
  bool complete = true;
  std::string reason;  // why it is not complete
  std::int64_t tokensUsed = 0;
  std::string head;
  std::optional<std::string> incrementalFrom;  // the last reviewed head on a synchronize
  std::vector<DroppedFinding> dropped;         // the model's findings off the change
};

// coverage.json, written atomically. IO_ERROR when it cannot be written.
Status writeCoverage(const std::filesystem::path& outDir, const Coverage& coverage);

}  // namespace lw::agents::review
