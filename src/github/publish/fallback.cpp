#include "github/publish/fallback.h"

#include <algorithm>
#include <ostream>

#include "github/actions/workflow_commands.h"

namespace lw::github {

FallbackPlan planFallback(const std::vector<FallbackItem>& items, const AnnotationLimits& limits) {
  std::vector<const FallbackItem*> order;
  for (const auto& i : items) order.push_back(&i);
  auto rank = [](Severity s) { return s == Severity::Error ? 0 : s == Severity::Warning ? 1 : 2; };
  std::stable_sort(order.begin(), order.end(), [&](const FallbackItem* a, const FallbackItem* b) {
    if (rank(a->finding.severity) != rank(b->finding.severity))
      return rank(a->finding.severity) < rank(b->finding.severity);
    return a->inDiff && !b->inDiff;
  });
  FallbackPlan plan;
  int left[3] = {limits.errors, limits.warnings, limits.notices};
  int total = limits.total;
  for (const FallbackItem* i : order) {
    int& l = left[rank(i->finding.severity)];
    if (l > 0 && total > 0) {
      --l;
      --total;
      plan.annotations.push_back(i->finding);
    } else {
      plan.rest.push_back(i->finding);
    }
  }
  return plan;
}

void printFallback(std::ostream& log, const FallbackPlan& plan) {
  for (const Finding& f : plan.annotations) log << annotationCommand(f) << "\n";
  if (!plan.rest.empty()) {
    log << "loopwright: " << plan.rest.size()
        << " more finding(s) exceed GitHub's annotation limits; they are listed in the step summary\n";
  }
}

}  // namespace lw::github
