// The files of an author's worktree as a commit would hold them, read byte
// for byte (docs/author-steps.md, "The patch"): a regular file's bytes, a
// symlink's target, the owner's executable bit as git's mode. Nothing the
// worktree holds says how it is read: no .gitattributes (no eol, ident or
// filter conversion) and no .gitignore; what is tracked comes from the base
// tree, and which untracked files are ignored is the caller's to decide with
// the orchestrator's own rules.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <git2.h>

#include "core/result.h"

namespace lw::verify {

// A blob, symlink or gitlink of a tree.
struct TreeItem {
  git_oid id{};
  std::uint32_t mode = 0;  // git_filemode_t
};

// Every non-tree entry of a tree by its '/'-separated path.
using TreeTable = std::unordered_map<std::string, TreeItem>;

// The entries of `tree`, gitlinks (mode GIT_FILEMODE_COMMIT) included.
// IO_ERROR when a subtree cannot be read.
Result<TreeTable> treeTable(git_tree* tree);

struct WorktreeFile {
  std::string path;  // worktree-relative, '/'-separated
  TreeItem blob;     // its blob id and mode as read from disk
  std::uint64_t size = 0;
  bool tracked = false;  // the base tree has a blob or symlink at this path
  // Its bytes, kept only when the base tree does not already hold them at
  // this path: what has to be written before a tree can name it.
  std::optional<std::string> bytes;
};

// Every regular file and symlink below `root` in path order, but `.git`
// entries and the directories of the base's gitlinks (git does not look
// inside either); other file types are left out as git leaves them out.
// IO_ERROR naming the file when one cannot be read.
Result<std::vector<WorktreeFile>> readWorktreeFiles(const std::filesystem::path& root, const TreeTable& base);

}  // namespace lw::verify
