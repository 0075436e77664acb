// When GitHub refuses our writes (a fork pull request's read-only token:
// 403/404), findings are printed as workflow-command annotations instead.
// The runner shows at most 10 error, 10 warning and 10 notice annotations a
// step and 50 a job (github.com/actions/toolkit/blob/main/docs/problem-matchers.md,
// "Limitations"), so the most useful are chosen: errors first, findings on the
// diff first; the rest go to the step summary, so nothing is dropped silently.
#pragma once

#include <iosfwd>
#include <vector>

#include "core/finding.h"

namespace lw::github {

struct AnnotationLimits {
  int errors = 10;
  int warnings = 10;
  int notices = 10;
  int total = 50;
};

struct FallbackItem {
  Finding finding;
  bool inDiff = false;
};

struct FallbackPlan {
  std::vector<Finding> annotations;  // printed, in this order
  std::vector<Finding> rest;         // left to the step summary
};

FallbackPlan planFallback(const std::vector<FallbackItem>& items, const AnnotationLimits& limits = {});

// Prints the annotations, then one plain line counting the rest.
void printFallback(std::ostream& log, const FallbackPlan& plan);

}  // namespace lw::github
