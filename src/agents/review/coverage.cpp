#include "agents/review/coverage.h"

#include "agents/output.h"
#include "core/step_coverage.h"

namespace lw::agents::review {

std::string_view toString(CoverageStatus s) {
  switch (s) {
    case CoverageStatus::Reviewed: return "reviewed";
    case CoverageStatus::Clipped: return "clipped";
    case CoverageStatus::Skipped: return "skipped";
  }
  return "skipped";
}

Status writeCoverage(const std::filesystem::path& outDir, const Coverage& c) {
  // The file's shape is the publisher's (core/step_coverage.h), written by its
  // own encoder so the two cannot drift apart.
  lw::Coverage out;
  for (const FileCoverage& f : c.files) out.files.push_back({f.path, *parseFileReview(toString(f.status)), f.reason});
  out.complete = c.complete;
  out.reason = c.reason;
  out.tokensUsed = c.tokensUsed;
  out.head = c.head;
  out.incrementalFrom = c.incrementalFrom.value_or("");
  return agents::writeCoverage(outDir, std::move(out));
}

}  // namespace lw::agents::review
