// The pure half of the check runs: one check run per stage, its annotations
// cut into the batches of 50 the Checks API accepts per request, its summary
// within 65,535 characters, and its conclusion (github/publish/conclusion.h: findings
// at the fail level, failed or blocked steps, incomplete coverage).
#pragma once

#include <string>
#include <vector>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include "github/publish/publication.h"

namespace lw::github {

inline constexpr std::size_t kAnnotationsPerRequest = 50;    // Checks API limit per request
inline constexpr std::size_t kMaxCheckSummaryChars = 65535;  // output.summary limit

struct CheckRunPlan {
  std::string name;        // "loopwright / review"
  std::string externalId;  // identifies this stage's results, so re-runs find it
  std::string title;
  std::string summary;
  std::vector<boost::json::array> batches;  // of at most 50 annotations each
  std::string conclusion;                   // toString(Conclusion) of judgeStage, as the API takes it
  std::size_t annotated = 0;                // findings carried as annotations
};

// `steps` are the run's step rows; those of this stage that were blocked
// make the check fail and their BLOCKER text goes in the summary.
CheckRunPlan planCheckRun(const StageResult& stage, const std::vector<StepRow>& steps, const std::string& headSha,
                          FailOn failOn);

// Cuts `text` to at most `limit` characters (on a UTF-8 boundary) ending
// with `note`; unchanged when it fits.
std::string truncateWithNote(const std::string& text, std::size_t limit, const std::string& note);

}  // namespace lw::github
