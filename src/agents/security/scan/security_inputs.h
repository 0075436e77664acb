// What builtin/security reads through its bridge: the pull request's diff
// (github.pulls.diff) and, for the files a rule reads whole, their content
// at head (github.file). The bridge, not the workspace: a pull_request
// workflow checks out the merge commit by default, whose lines are not the
// head's, and the diff's line numbers are the head's.
#pragma once

#include <ostream>
#include <vector>

#include "agents/agent.h"
#include "agents/security/changed_file.h"

namespace lw::agents::security {

// The changed files with their added lines, and content where needed. Fails
// with the tool's error (its code kept) when a call fails, and with
// OUTPUT_INVALID when an answer lacks its fields or the diff does not parse.
// A truncated diff or file is scanned as far as it goes, with a note in `log`
// (and ChangedFile::truncated set, so that a workflow is not read in part).
Result<std::vector<ChangedFile>> readChangedFiles(BridgeClient& bridge, std::ostream& log);

}  // namespace lw::agents::security
