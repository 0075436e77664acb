// What verification watches of a repository, in one place: the baseline's
// walk, the check's walk and the author policy all ask here. Nothing under a
// git directory is writable by any step (docs/verification.md): the walks
// see every file there but the loose objects, and the policy refuses every
// change there, whatever the step's role.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "verify/baseline/baseline.h"
#include "verify/baseline/change.h"
#include "verify/baseline/fs_walk.h"

namespace lw::verify {

// How a walk treats one entry.
enum class Watch : std::uint8_t {
  Capture,   // compared; its bytes kept for a restore (within the budgets)
  StatOnly,  // compared by metadata only: packs and LFS files, written whole and large
  Skip,      // no entry and no descent: loose objects (the repository's and each submodule's)
};

// How the walks of `b` treat the entry `rel` (relative to the root of `area`)
// of type `type`. Depends only on the path, the type and where the baseline's
// roots are, so the baseline and the check agree on it. (The baseline's own
// store is never in a watched area: takeBaseline refuses one there.)
Watch watchOf(const Baseline& b, Area area, std::string_view rel, FileType type);

// What part of the repository the entry `rel` of `area` is, for people and
// for policy: in the git directory by what git reads there; in the work tree
// a hook under a core.hooksPath there, what git reads inside any nested .git
// (the .git itself says where a repository is: Config), else WorkTree.
Category categoryOf(const Baseline& b, Area area, std::string_view rel);

// True when the work-tree-relative path `rel` is a git directory or inside
// one: any component named ".git" (in any case: it is one on a
// case-insensitive file system). Covers the repository's own .git, a
// submodule's gitfile and a nested repository's git directory.
bool isInsideGitDir(std::string_view rel);

// For a work-tree-relative path inside a git directory, the part after its
// first ".git" component ("" for the .git itself); nullopt when it is not
// inside one. "sub/.git/hooks/x" -> "hooks/x".
std::optional<std::string_view> pathInGitDir(std::string_view rel);

// True when a change at `rel` in `area` is to what git reads as repository
// state rather than to the working tree: anything in the git directory (refs
// included), a core.hooksPath outside the work tree, or a work tree path
// inside a nested .git.
bool touchesGitState(Area area, std::string_view rel);

}  // namespace lw::verify
