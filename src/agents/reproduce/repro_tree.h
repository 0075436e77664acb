// The tree a reproduction runs in: the files of the checkout's HEAD (the
// default branch on an issue event), or of the branch or commit the issue
// names, written to a fresh directory. The repository is only read: nothing
// of its index, refs or working tree changes.
#pragma once

#include <filesystem>
#include <optional>

#include "agents/reproduce/repro_extract.h"
#include "core/result.h"

namespace lw::agents::reproduce {

// Writes the tree of `ref` (HEAD when nullopt) of the repository at `repo`
// into `target` (created; it must not exist). A branch is looked for as
// refs/heads/<name>, then refs/remotes/origin/<name>. IO_ERROR naming what
// is missing (a branch or commit not in this clone, an unreadable
// repository) or what could not be written.
Status writeTree(const std::filesystem::path& repo, const std::optional<SourceRef>& ref,
                 const std::filesystem::path& target);

// "the default branch", "branch `x`", "commit `abc1234`".
std::string describeRef(const std::optional<SourceRef>& ref);

}  // namespace lw::agents::reproduce
