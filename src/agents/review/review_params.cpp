#include "agents/review/review_params.h"

#include "agents/params.h"

namespace lw::agents::review {

namespace json = boost::json;

namespace {

// Integers in the catalogue's bounds at most; larger would not fit the casts.
bool positive(double v) { return v >= 1 && v <= 1e12; }

}  // namespace

Result<ReviewParams> readReviewParams(const json::object& params) {
  const ParamReader with("review", params);
  ReviewParams r;
  double maxFiles = r.maxFiles, maxTokens = static_cast<double>(r.maxTokens),
         chunkTokens = static_cast<double>(r.chunkTokens), maxFindings = r.maxFindings;
  if (!with.number("maxFiles", maxFiles) || !positive(maxFiles) || maxFiles > 1e9)
    return with.bad("maxFiles", "a positive integer");
  if (!with.number("maxTokens", maxTokens) || !positive(maxTokens)) return with.bad("maxTokens", "a positive integer");
  if (!with.number("chunkTokens", chunkTokens) || !positive(chunkTokens))
    return with.bad("chunkTokens", "a positive integer");
  if (!with.number("maxFindings", maxFindings) || !positive(maxFindings) || maxFindings > 1e9)
    return with.bad("maxFindings", "a positive integer");
  if (!with.number("minConfidence", r.minConfidence) || r.minConfidence < 0 || r.minConfidence > 1)
    return with.bad("minConfidence", "a number from 0 to 1");
  if (!with.severity("minSeverity", r.minSeverity)) return with.bad("minSeverity", "one of error, warning, notice");
  if (!with.strings("exclude", r.exclude)) return with.bad("exclude", "a list of globs");
  if (!with.string("instructions", r.instructions)) return with.bad("instructions", "a path");
  r.maxFiles = static_cast<int>(maxFiles);
  r.maxTokens = static_cast<std::int64_t>(maxTokens);
  r.chunkTokens = static_cast<std::int64_t>(chunkTokens);
  r.maxFindings = static_cast<int>(maxFindings);
  return r;
}

}  // namespace lw::agents::review
