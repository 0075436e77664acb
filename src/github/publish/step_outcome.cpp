#include "github/publish/step_outcome.h"

#include <array>
#include <utility>

namespace lw::github {
namespace {

constexpr std::array<std::pair<StepOutcome, std::string_view>, 7> kOutcomeNames{{
    {StepOutcome::Passed, "passed"},
    {StepOutcome::Failed, "failed"},
    {StepOutcome::Blocked, "blocked"},
    {StepOutcome::Quarantined, "quarantined"},
    {StepOutcome::Refused, "refused"},
    {StepOutcome::Skipped, "skipped"},
    {StepOutcome::Error, "error"},
}};

}  // namespace

std::string_view toString(StepOutcome o) {
  for (const auto& [outcome, name] : kOutcomeNames)
    if (outcome == o) return name;
  return "error";
}

std::optional<StepOutcome> stepOutcomeNamed(std::string_view name) {
  for (const auto& [outcome, known] : kOutcomeNames)
    if (known == name) return outcome;
  return std::nullopt;
}

std::optional<StepOutcome> rowOutcomeNamed(std::string_view name) {
  if (name.empty()) return std::nullopt;
  return stepOutcomeNamed(name).value_or(StepOutcome::Failed);
}

}  // namespace lw::github
