// The bridge's GitHub reads answered from the local clone with libgit2: the
// diff and file list of a range the way GitHub computes them (from the merge
// base, renames detected, binary files flagged), a file at a commit, and
// whether one commit is an ancestor of another. Each call opens the
// repository afresh, so one instance may serve steps on several threads.
#pragma once

#include <string>

#include "core/github_reads.h"
#include "core/result.h"

namespace lw::pipeline {

class LocalGitReads {
 public:
  explicit LocalGitReads(std::string repoDir, ReadLimits limits = {}) : repoDir_(std::move(repoDir)), limits_(limits) {}

  // scope.base...scope.head (from their merge base), as `git diff` prints it
  // with rename detection, clipped to limits.diffBytes. IO_ERROR when either
  // commit is not in the clone.
  Result<PullDiff> diff(const DiffScope& scope) const;
  // The same range's files, at most limits.maxFiles.
  Result<PullFiles> files(const DiffScope& scope) const;
  // `path` in `commit`'s tree, its bytes as stored (no filters), clipped to
  // limits.fileBytes. notFound() when it is not a file there.
  Result<FileAtRef> file(const std::string& commit, const std::string& path, TreeSide side) const;
  // The commit the clone has checked out (HEAD). IO_ERROR when unborn.
  Result<std::string> headCommit() const;
  // True when `ancestor` is `descendant` or one of its ancestors.
  Result<bool> isAncestor(const std::string& ancestor, const std::string& descendant) const;

 private:
  std::string repoDir_;
  ReadLimits limits_;
};

}  // namespace lw::pipeline
