// Linked worktrees of the orchestrator's checkout for author steps
// (docs/author-steps.md): added detached at a commit, so that no branch and
// no ref is left behind, and removed with their administrative directory.
// Every function here is an effect on a real repository through libgit2.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.h"

namespace lw::verify {

// The commit HEAD of the repository whose working tree is `repo` points at.
// IO_ERROR when it cannot be opened or HEAD is unborn.
Result<std::string> headCommit(const std::filesystem::path& repo);

// A worktree as added: where its files are, and where git keeps its state.
struct LinkedWorktree {
  std::string name;                 // its administrative directory's name
  std::filesystem::path path;       // the working tree
  std::filesystem::path commonDir;  // the orchestrator's git directory
  std::filesystem::path adminDir;   // commonDir/worktrees/<name>
  std::string commit;               // what it was checked out at (HEAD detached there)
};

// Adds the worktree `name` of `repo` at `path` (which must not exist),
// checked out at `commit` with HEAD detached. The branch libgit2 needs to add
// one exists only for the duration of this call. IO_ERROR when anything
// fails; what was made by then is removed again.
Result<LinkedWorktree> addDetachedWorktree(const std::filesystem::path& repo, const std::string& name,
                                           const std::filesystem::path& path, const std::string& commit);

// Irreversible: deletes the working tree `path`, prunes the worktree `name`
// of `repo` (its administrative directory) and the repository's worktrees/
// directory if nothing is left in it (as `git worktree prune` does). A
// worktree or directory already gone is not an error.
Status removeWorktree(const std::filesystem::path& repo, const std::string& name, const std::filesystem::path& path);

}  // namespace lw::verify
