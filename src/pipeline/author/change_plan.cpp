#include "pipeline/author/change_plan.h"

namespace lw::pipeline {

std::string refusalOf(const StepRecord& step, const AuthorChange& change) {
  if (!change.refusedBecause.empty()) return change.refusedBecause;
  if (step.outcome != StepOutcome::Passed)
    return "the step did not pass (" + std::string(toString(step.outcome)) +
           (step.message.empty() ? "" : ": " + step.message) + ")";
  if (change.filesChanged == 0) return "the step changed no file";
  return {};
}

void decideChange(const StepRecord& step, AuthorChange& change) {
  change.refusedBecause = refusalOf(step, change);
  change.accepted = change.refusedBecause.empty();
}

}  // namespace lw::pipeline
