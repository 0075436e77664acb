#include "agents/review/coverage.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "core/file_io.h"
#include "core/json_text.h"

namespace lw::agents::review {

namespace json = boost::json;

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
  json::array files;
  for (const FileCoverage& f : c.files)
    files.push_back(json::object{{"path", f.path}, {"status", toString(f.status)}, {"reason", bounded(f.reason)}});
  json::object o{{"files", std::move(files)},
                 {"complete", c.complete},
                 {"reason", bounded(c.reason)},
                 {"tokensUsed", c.tokensUsed},
                 {"head", c.head}};
  o["incrementalFrom"] = c.incrementalFrom ? json::value(*c.incrementalFrom) : json::value(nullptr);
  // Paths come from the pull request: not necessarily UTF-8.
  return writeFileAtomic((outDir / "coverage.json").string(), toJsonText(o) + "\n", false);
}

}  // namespace lw::agents::review
