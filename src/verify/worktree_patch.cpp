#include "verify/worktree_patch.h"

#include <algorithm>

#include <git2.h>

#include "core/file_io.h"
#include "verify/libgit2.h"

namespace lw::verify {
namespace fs = std::filesystem;

namespace {

struct DiffDeleter {
  void operator()(git_diff* p) const { git_diff_free(p); }
  void operator()(git_patch* p) const { git_patch_free(p); }
  void operator()(git_worktree* p) const { git_worktree_free(p); }
};
template <class T>
using DiffPtr = std::unique_ptr<T, DiffDeleter>;

// The worktree's repository, found from the orchestrator's: a step that
// rewrote its .git file cannot point the diff elsewhere.
Result<GitPtr<git_repository>> openWorktree(const fs::path& repo, const std::string& name) {
  auto main = openRepository(repo.string());
  if (!main) return main.error();
  git_worktree* wt = nullptr;
  if (git_worktree_lookup(&wt, main->get(), name.c_str()) != 0)
    return gitError(ErrorCode::IoError, "no worktree '" + name + "' in " + repo.string(), name);
  DiffPtr<git_worktree> owned(wt);
  git_repository* raw = nullptr;
  if (git_repository_open_from_worktree(&raw, wt) != 0)
    return gitError(ErrorCode::IoError, "cannot open worktree '" + name + "'", name);
  return GitPtr<git_repository>(raw);
}

Result<DiffPtr<git_diff>> diffAgainst(git_repository* repo, const std::string& baseCommit) {
  git_oid oid;
  git_object* raw = nullptr;
  if (!parseOid(baseCommit, oid) || git_object_lookup(&raw, repo, &oid, GIT_OBJECT_COMMIT) != 0)
    return gitError(ErrorCode::IoError, "no base commit " + baseCommit, baseCommit);
  GitPtr<git_object> commit(raw);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, reinterpret_cast<git_commit*>(commit.get())) != 0)
    return gitError(ErrorCode::IoError, "cannot read the tree of " + baseCommit, baseCommit);
  GitPtr<git_tree> ownedTree(tree);
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS | GIT_DIFF_SHOW_UNTRACKED_CONTENT |
               GIT_DIFF_SHOW_BINARY;
  git_diff* diff = nullptr;
  if (git_diff_tree_to_workdir_with_index(&diff, repo, tree, &opts) != 0)
    return gitError(ErrorCode::IoError, "cannot diff the worktree against " + baseCommit, baseCommit);
  return DiffPtr<git_diff>(diff);
}

Result<PatchSummary> summarise(git_diff* diff) {
  PatchSummary s;
  const std::size_t n = git_diff_num_deltas(diff);
  for (std::size_t i = 0; i < n; ++i) {
    git_patch* raw = nullptr;
    if (git_patch_from_diff(&raw, diff, i) != 0) return gitError(ErrorCode::IoError, "cannot read the diff");
    DiffPtr<git_patch> patch(raw);
    const git_diff_delta* delta = git_patch_get_delta(patch.get());
    std::size_t added = 0, deleted = 0;
    git_patch_line_stats(nullptr, &added, &deleted, patch.get());
    s.linesAdded += static_cast<std::int64_t>(added);
    s.linesDeleted += static_cast<std::int64_t>(deleted);
    s.binary = s.binary || (delta->flags & GIT_DIFF_FLAG_BINARY) != 0;
    s.paths.emplace_back(delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path);
  }
  std::sort(s.paths.begin(), s.paths.end());
  s.paths.erase(std::unique(s.paths.begin(), s.paths.end()), s.paths.end());
  s.filesChanged = static_cast<std::int64_t>(n);
  return s;
}

}  // namespace

Result<PatchSummary> writeWorktreePatch(const fs::path& repo, const std::string& worktreeName,
                                        const std::string& baseCommit, const fs::path& patchFile) {
  auto wt = openWorktree(repo, worktreeName);
  if (!wt) return wt.error();
  auto diff = diffAgainst(wt->get(), baseCommit);
  if (!diff) return diff.error();
  auto summary = summarise(diff->get());
  if (!summary) return summary;
  git_buf buf = GIT_BUF_INIT;
  if (git_diff_to_buf(&buf, diff->get(), GIT_DIFF_FORMAT_PATCH) != 0)
    return gitError(ErrorCode::IoError, "cannot format the patch of worktree '" + worktreeName + "'", worktreeName);
  std::string text(buf.ptr != nullptr ? buf.ptr : "", buf.size);
  git_buf_dispose(&buf);
  if (auto written = writeFileAtomic(patchFile.string(), text, /*sync=*/true); !written) return written.error();
  return summary;
}

}  // namespace lw::verify
