#include "agents/review/coverage.h"

#include "core/file_io.h"
#include "core/json_text.h"
#include "github/coverage.h"

namespace lw::agents::review {

namespace {

// schemas/coverage.schema.json bounds each reason at 1024 characters; cut
// well inside, since repairing a sequence cut in half can add bytes.
constexpr std::size_t kMaxReasonBytes = 1000;

std::string bounded(const std::string& reason) {
  return reason.size() <= kMaxReasonBytes ? reason : reason.substr(0, kMaxReasonBytes - 3) + "...";
}

}  // namespace

std::string_view toString(CoverageStatus s) {
  switch (s) {
    case CoverageStatus::Reviewed: return "reviewed";
    case CoverageStatus::Clipped: return "clipped";
    case CoverageStatus::Skipped: return "skipped";
  }
  return "skipped";
}

Status writeCoverage(const std::filesystem::path& outDir, const Coverage& c) {
  // The file's shape is the publisher's (github/coverage.h), written by its
  // own encoder so the two cannot drift apart.
  github::Coverage out;
  for (const FileCoverage& f : c.files)
    out.files.push_back({f.path, *github::parseFileReview(toString(f.status)), bounded(f.reason)});
  out.complete = c.complete;
  out.reason = bounded(c.reason);
  out.tokensUsed = c.tokensUsed;
  out.head = c.head;
  out.incrementalFrom = c.incrementalFrom.value_or("");
  // Paths come from the pull request: not necessarily UTF-8.
  return writeFileAtomic((outDir / "coverage.json").string(), toJsonText(github::toJson(out)) + "\n", false);
}

}  // namespace lw::agents::review
