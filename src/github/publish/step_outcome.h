// How a step ended: the vocabulary run.json, the outbox's step rows and the
// run's conclusion (github/publish/conclusion.h) share, spelled by name only at the
// JSON boundary.
#pragma once

#include <optional>
#include <string_view>

namespace lw::github {

enum class StepOutcome {
  Passed,       // exited 0, verified, outputs accepted
  Failed,       // exited non-zero (outputs still verified and kept)
  Blocked,      // stopped by a guardrail or its wall time: BLOCKER
  Quarantined,  // verification found a violation; changes quarantined
  Refused,      // no backend could give the policy: fail closed
  Skipped,      // its stage did not run
  Error,        // loopwright could not run it (launch, I/O)
};
std::string_view toString(StepOutcome o);
// nullopt for a name no version wrote (and for the empty outcome of old rows).
std::optional<StepOutcome> stepOutcomeNamed(std::string_view name);

// What an outbox row's outcome name stands for: nullopt for the empty name
// of rows written before steps had an outcome, Failed for a name this
// version does not know (never a silent success).
std::optional<StepOutcome> rowOutcomeNamed(std::string_view name);

}  // namespace lw::github
