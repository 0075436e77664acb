// Which of loopwright's earlier review comments a run marks resolved: a
// finding posted before that this run no longer reports, in a file this run
// reviewed whole, on a thread no person has answered. Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "github/publish/markers.h"
#include "github/publish/publication.h"

namespace lw::github {

// A review comment loopwright posted earlier (author already checked).
struct OwnComment {
  std::int64_t id = 0;
  std::string body;
  std::string path = {};  // the file it is on
  bool answered = false;  // someone else replied in its thread (in_reply_to_id)
  bool outdated = false;  // GitHub no longer places it on the diff (line: null): its code changed
};

// Where a gone finding may be resolved: the files (nullopt: every file),
// and whether only comments GitHub marks outdated qualify. A run that
// reviewed only the changes since an earlier head did not look at the
// lines it left alone, so a finding it does not repeat is gone only where
// the code under its comment changed, which GitHub shows by taking the
// comment off the diff (`line: null`).
struct ResolveRule {
  std::optional<std::set<std::string>> files;
  bool onlyOutdated = false;
  // Only comments of this origin: a fork's artifact never resolves a
  // trusted run's finding by leaving it out, nor the other way round.
  Origin origin = Origin::Trusted;
};

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
