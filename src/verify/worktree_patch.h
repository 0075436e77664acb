// The change an author step made in its worktree, as a patch
// (docs/author-steps.md): the working tree against the commit it was checked
// out at, new untracked files included, ignored files not, in `git diff
// --binary` format so that `git apply` reproduces it byte for byte.
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
  std::int64_t linesAdded = 0;
  std::int64_t linesDeleted = 0;
  bool binary = false;  // some changed file is binary
};

// Diffs the worktree `worktreeName` of the repository `repo` (its files and
// its index, opened through `repo`'s administrative directory, never through
// the worktree's own .git file) against `baseCommit` and writes the patch to
// `patchFile` (empty when nothing changed). IO_ERROR when the worktree or the
// commit cannot be read or the file cannot be written.
Result<PatchSummary> writeWorktreePatch(const std::filesystem::path& repo, const std::string& worktreeName,
                                        const std::string& baseCommit, const std::filesystem::path& patchFile);

}  // namespace lw::verify
