#include "verify/patch/worktree_patch.h"

#include <algorithm>

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "core/file_io.h"
#include "policy/model/scope_glob.h"
#include "verify/git/libgit2.h"
#include "verify/patch/worktree_files.h"

namespace lw::verify {
namespace fs = std::filesystem;

namespace {

// Above the loose (1) and packed (2) stores: every object written lands here.
constexpr int kMemoryStorePriority = 1000;

struct DiffDeleter {
  void operator()(git_diff* p) const { git_diff_free(p); }
  void operator()(git_patch* p) const { git_patch_free(p); }
  void operator()(git_worktree* p) const { git_worktree_free(p); }
  void operator()(git_odb* p) const { git_odb_free(p); }
};
template <class T>
using DiffPtr = std::unique_ptr<T, DiffDeleter>;

// Where the worktree's files are, as the orchestrator's administrative
// directory records it: a step that rewrote its .git file cannot point the
// diff elsewhere.
Result<fs::path> worktreePath(git_repository* main, const std::string& name) {
  git_worktree* wt = nullptr;
  if (git_worktree_lookup(&wt, main, name.c_str()) != 0)
    return gitError(ErrorCode::IoError, "no worktree '" + name + "'", name);
  DiffPtr<git_worktree> owned(wt);
  const char* path = git_worktree_path(wt);
  if (path == nullptr) return gitError(ErrorCode::IoError, "no path for worktree '" + name + "'", name);
  return fs::path(path);
}

Result<GitPtr<git_tree>> treeOf(git_repository* repo, const std::string& commit) {
  git_oid oid;
  git_object* raw = nullptr;
  if (!parseOid(commit, oid) || git_object_lookup(&raw, repo, &oid, GIT_OBJECT_COMMIT) != 0)
    return gitError(ErrorCode::IoError, "no base commit " + commit, commit);
  GitPtr<git_object> owned(raw);
  git_tree* tree = nullptr;
  if (git_commit_tree(&tree, reinterpret_cast<git_commit*>(owned.get())) != 0)
    return gitError(ErrorCode::IoError, "cannot read the tree of " + commit, commit);
  return GitPtr<git_tree>(tree);
}

// This handle's object store writes to memory only, so that the patch's new
// blobs never reach the checkout's .git.
Status writeObjectsToMemory(git_repository* repo) {
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) != 0) return gitError(ErrorCode::IoError, "cannot open the object store");
  DiffPtr<git_odb> odb(raw);
  git_odb_backend* memory = nullptr;
  if (git_mempack_new(&memory) != 0) return gitError(ErrorCode::IoError, "cannot make an in-memory object store");
  if (git_odb_add_backend(odb.get(), memory, kMemoryStorePriority) != 0) {
    memory->free(memory);
    return gitError(ErrorCode::IoError, "cannot add an in-memory object store");
  }
  return Ok{};
}

// An untracked file is left out when the orchestrator's rules ignore it: the
// checkout's .gitignore files (the base commit's, not the worktree's), its
// info/exclude and core.excludesFile. A rule file is never left out: the
// task contract judges it (docs/taskpack.md, "Task contract").
Result<std::vector<WorktreeFile>> withoutIgnored(git_repository* repo, std::vector<WorktreeFile> files) {
  std::vector<WorktreeFile> kept;
  kept.reserve(files.size());
  for (WorktreeFile& f : files) {
    int ignored = 0;
    if (!f.tracked && !isGitRuleFile(f.path)) {
      if (git_ignore_path_is_ignored(&ignored, repo, f.path.c_str()) != 0)
        return gitError(ErrorCode::IoError, "cannot read the ignore rules for " + f.path, f.path);
    }
    if (ignored == 0) kept.push_back(std::move(f));
  }
  return kept;
}

// Writing an object the store already has would touch its file (git's
// "freshen"): only new ones are written, and to memory.
Status writeNewBlobs(git_repository* repo, const std::vector<WorktreeFile>& files) {
  git_odb* raw = nullptr;
  if (git_repository_odb(&raw, repo) != 0) return gitError(ErrorCode::IoError, "cannot open the object store");
  DiffPtr<git_odb> odb(raw);
  for (const WorktreeFile& f : files) {
    if (!f.bytes || git_odb_exists(odb.get(), &f.blob.id) != 0) continue;
    git_oid written;
    if (git_odb_write(&written, odb.get(), f.bytes->data(), f.bytes->size(), GIT_OBJECT_BLOB) != 0)
      return gitError(ErrorCode::IoError, "cannot store " + f.path, f.path);
  }
  return Ok{};
}

Status addEntry(git_index* index, const std::string& path, const TreeItem& item, std::uint64_t size) {
  git_index_entry e{};
  e.path = path.c_str();
  e.mode = item.mode;
  e.id = item.id;
  e.file_size = static_cast<std::uint32_t>(size);
  if (git_index_add(index, &e) != 0) return gitError(ErrorCode::IoError, "cannot index " + path, path);
  return Ok{};
}

// The worktree as an in-memory index: its files, and the base's gitlinks
// (a step cannot move a submodule: its git directory is not writable).
Result<GitPtr<git_index>> indexOf(const std::vector<WorktreeFile>& files, const TreeTable& base) {
  git_index* raw = nullptr;
  if (git_index_new(&raw) != 0) return gitError(ErrorCode::IoError, "cannot create an index");
  GitPtr<git_index> index(raw);
  for (const WorktreeFile& f : files)
    if (auto added = addEntry(index.get(), f.path, f.blob, f.size); !added) return added.error();
  for (const auto& [path, item] : base)
    if (item.mode == GIT_FILEMODE_COMMIT)
      if (auto added = addEntry(index.get(), path, item, 0); !added) return added.error();
  return index;
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
    const std::string path = delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path;
    if ((delta->flags & GIT_DIFF_FLAG_BINARY) != 0) {
      s.binaryPaths.push_back(path);
      s.binaryBytes += static_cast<std::int64_t>(delta->old_file.size + delta->new_file.size);
    }
    s.paths.push_back(path);
  }
  for (auto* list : {&s.paths, &s.binaryPaths}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  s.filesChanged = static_cast<std::int64_t>(n);
  return s;
}

// The base tree against the worktree's files in memory, in the
// orchestrator's repository: its attributes decide text or binary.
Result<DiffPtr<git_diff>> diffWorktree(git_repository* repo, const fs::path& worktree, const std::string& baseCommit) {
  auto tree = treeOf(repo, baseCommit);
  if (!tree) return tree.error();
  auto base = treeTable(tree->get());
  if (!base) return base.error();
  auto read = readWorktreeFiles(worktree, *base);
  if (!read) return read.error();
  auto files = withoutIgnored(repo, std::move(*read));
  if (!files) return files.error();
  if (auto written = writeNewBlobs(repo, *files); !written) return written.error();
  auto index = indexOf(*files, *base);
  if (!index) return index.error();
  git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
  opts.flags = GIT_DIFF_SHOW_BINARY;
  git_diff* diff = nullptr;
  if (git_diff_tree_to_index(&diff, repo, tree->get(), index->get(), &opts) != 0)
    return gitError(ErrorCode::IoError, "cannot diff the worktree against " + baseCommit, baseCommit);
  return DiffPtr<git_diff>(diff);
}

}  // namespace

Result<PatchSummary> writeWorktreePatch(const fs::path& repo, const std::string& worktreeName,
                                        const std::string& baseCommit, const fs::path& patchFile) {
  auto main = openRepository(repo.string());
  if (!main) return main.error();
  auto path = worktreePath(main->get(), worktreeName);
  if (!path) return path.error();
  if (auto memory = writeObjectsToMemory(main->get()); !memory) return memory.error();
  auto diff = diffWorktree(main->get(), *path, baseCommit);
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
