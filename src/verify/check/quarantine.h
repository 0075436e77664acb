// Keeps what a step changed for people to inspect: a commit whose tree holds
// the changed files as they were after the step (worktree/<path>,
// git/<path>, hooks-path/<path>) and a CHANGES list, under
// refs/loopwright/quarantine/<run>/<step>.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "verify/baseline/baseline.h"
#include "verify/baseline/change.h"

namespace lw::verify {

// "refs/loopwright/quarantine/<run>/<step>" with each part reduced to
// [A-Za-z0-9._-] so that any run id or step name makes a valid ref name.
std::string quarantineRefName(const std::string& runId, const std::string& step);

// Writes the blobs, tree and commit of `changes` (read from disk now) and
// returns the commit id. Writes objects only; no ref.
Result<std::string> writeQuarantineCommit(const Baseline& baseline, const std::vector<Change>& changes,
                                          const std::string& runId, const std::string& step);

// Points `refName` at `commitId` (overwriting an earlier quarantine).
Status writeQuarantineRef(const Baseline& baseline, const std::string& refName, const std::string& commitId);

}  // namespace lw::verify
