// A unified patch applied to a tree in the object store alone (no working
// tree, no index file, no ref): what an author's patch or an eval case's
// change becomes as a commit.
#pragma once

#include <string>
#include <string_view>

#include "verify/git/libgit2.h"

namespace lw::verify {

// The tree of `base` with `patch` applied, written to `repo`'s objects.
// IO_ERROR saying whether the patch did not parse or did not apply.
Result<GitPtr<git_tree>> treeWithPatch(git_repository* repo, git_tree* base, std::string_view patch);

// `patch` applied to commit `base`'s tree and committed with `base` as its
// only parent (commitTreeOnto): objects only, no ref. IO_ERROR when the base
// is missing, or as treeWithPatch and commitTreeOnto.
Result<git_oid> commitWithPatch(git_repository* repo, const git_oid& base, std::string_view patch,
                                const CommitIdentity& who, const std::string& message);

}  // namespace lw::verify
