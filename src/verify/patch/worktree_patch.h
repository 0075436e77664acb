// The change an author step made in its worktree, as a patch
// (docs/author-steps.md, "The patch"): the worktree's files, read byte for
// byte, against the commit it was checked out at, new files included unless
// the orchestrator's own ignore rules ignore them, in `git diff --binary`
// format so that `git apply` reproduces it byte for byte. Every attribute
// and ignore rule comes from the orchestrator's checkout (its .gitattributes
// and .gitignore files, its git directory's info/, its config), never from
// a file the step wrote.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"

namespace lw::verify {

struct PatchSummary {
  std::vector<std::string> paths;  // changed paths, worktree-relative, sorted
  std::int64_t filesChanged = 0;
  std::int64_t linesAdded = 0;  // text files only
  std::int64_t linesDeleted = 0;
  std::vector<std::string> binaryPaths;  // the changed paths diffed as binary, sorted
  std::int64_t binaryBytes = 0;          // their sizes before and after the change, summed
};

// Diffs the worktree `worktreeName` of the repository `repo` (found through
// `repo`'s administrative directory, never through the worktree's own .git
// file) against `baseCommit` and writes the patch to `patchFile` (empty when
// nothing changed). Whether a file is text or binary is decided by `repo`'s
// attributes and then its content; a .gitattributes or .gitignore file in
// the worktree is only a changed file like any other, never ignored. Writes
// nothing under `repo`'s .git: new objects are kept in memory. IO_ERROR when
// the worktree or the commit cannot be read or the file cannot be written.
Result<PatchSummary> writeWorktreePatch(const std::filesystem::path& repo, const std::string& worktreeName,
                                        const std::string& baseCommit, const std::filesystem::path& patchFile);

}  // namespace lw::verify
