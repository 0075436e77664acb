// builtin/review's `with:` parameters as the agent uses them. The values
// were checked against policy/builtin/builtin_catalog.cpp before the step started
// (types, bounds, choices); this only reads them into a struct.
#pragma once

#include <boost/json/object.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "core/finding.h"
#include "core/result.h"

namespace lw::agents::review {

struct ReviewParams {
  int maxFiles = 50;
  std::int64_t maxTokens = 60000;
  std::int64_t chunkTokens = 6000;
  int maxFindings = 25;
  Severity minSeverity = Severity::Notice;
  double minConfidence = 0.6;
  std::vector<std::string> exclude;
  std::string instructions = ".loopwright/review.md";
};

// The parameters in `params` (the step's resolved `with:`), the catalogue's
// defaults where one is missing. TASKPACK_INVALID naming the parameter when
// one has the wrong type (a step started without validation).
Result<ReviewParams> readReviewParams(const boost::json::object& params);

}  // namespace lw::agents::review
