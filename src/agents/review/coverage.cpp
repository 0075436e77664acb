#include "agents/review/coverage.h"

#include "agents/output.h"

namespace lw::agents::review {

Status writeCoverage(const std::filesystem::path& outDir, const Coverage& c) {
  // The file's shape is the publisher's (core/step_coverage.h), written by its
  // own encoder so the two cannot drift apart.
  lw::Coverage out;
  out.files = c.files;
  out.complete = c.complete;
  out.reason = c.reason;
  out.tokensUsed = c.tokensUsed;
  out.head = c.head;
  out.incrementalFrom = c.incrementalFrom.value_or("");
  out.dropped = c.dropped;
  return agents::writeCoverage(outDir, std::move(out));
}

}  // namespace lw::agents::review
