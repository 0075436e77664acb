// Which of loopwright's earlier review comments a run marks resolved: a
// finding posted before that this run no longer reports, in a file this run
// reviewed whole, on a thread no person has answered. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "github/publication.h"
#include "github/review_plan.h"

namespace lw::github {

// The files in which a gone finding may be resolved (nullopt: every file).
// A run in which a step failed resolves nothing: its missing findings say
// nothing. Otherwise the files the steps' coverage lists as reviewed; with
// no coverage at all, every file, unless the run reviewed only what changed
// since an earlier head (`incremental`): then nothing.
std::optional<std::set<std::string>> resolveScope(const std::vector<StepRow>& steps, bool incremental);

// True when a step's coverage says it reviewed only the changes since an
// earlier head.
bool reviewedIncrementally(const std::vector<StepRow>& steps);

// The ids of `own` comments to mark resolved. `current` holds the
// fingerprints this run reports. A comment already resolved, without a
// finding marker, outside the rule, or answered by someone else is kept.
std::vector<std::int64_t> planResolve(const std::vector<OwnComment>& own, const std::set<std::string>& current,
                                      const ResolveRule& rule);

}  // namespace lw::github
