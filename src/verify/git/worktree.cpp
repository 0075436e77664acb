#include "verify/git/worktree.h"

#include <array>
#include <system_error>

#include <git2.h>

#include "verify/git/libgit2.h"

namespace lw::verify {
namespace fs = std::filesystem;

namespace {

struct WorktreeDeleter {
  void operator()(git_worktree* p) const { git_worktree_free(p); }
};
using WorktreePtr = std::unique_ptr<git_worktree, WorktreeDeleter>;

// Directories of the common git directory that the temporary branch (and its
// reflog) may create; those that did not exist before are removed again
// when empty, deepest first.
constexpr std::array<const char*, 4> kBranchDirs = {"logs/refs/heads", "logs/refs", "logs", "refs/heads"};

std::vector<fs::path> missingBranchDirs(const fs::path& commonDir) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (const char* d : kBranchDirs)
    if (!fs::exists(commonDir / d, ec)) missing.push_back(commonDir / d);
  return missing;
}

void removeIfEmpty(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec) && fs::is_empty(dir, ec)) fs::remove(dir, ec);
}

// The working tree's files, even where the step took away write permission
// from a directory of its own: those are made writable, then removed.
void removeTree(const fs::path& path) {
  std::error_code ec;
  if (fs::remove_all(path, ec) != static_cast<std::uintmax_t>(-1) && !ec) return;
  for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_directory(ec) && !it->is_symlink(ec))
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
  fs::remove_all(path, ec);
}

fs::path commonDirOf(git_repository* repo) {
  std::error_code ec;
  fs::path common = fs::weakly_canonical(git_repository_commondir(repo), ec);
  return common.empty() ? fs::path(git_repository_commondir(repo)) : common;
}

// Checks the new worktree out detached at `oid`: its HEAD stops naming the
// temporary branch, which can then go.
Status detachHead(git_worktree* wt, const git_oid& oid, const std::string& name) {
  git_repository* raw = nullptr;
  if (git_repository_open_from_worktree(&raw, wt) != 0)
    return gitError(ErrorCode::IoError, "cannot open the new worktree '" + name + "'", name);
  GitPtr<git_repository> wtRepo(raw);
  if (git_repository_set_head_detached(wtRepo.get(), &oid) != 0)
    return gitError(ErrorCode::IoError, "cannot detach the HEAD of worktree '" + name + "'", name);
  return Ok{};
}

// git_worktree_add needs a branch to check out (a NULL ref makes one named
// after the worktree, which would stay); this one is deleted before return.
Result<GitPtr<git_reference>> temporaryBranch(git_repository* repo, const std::string& name, const git_oid& oid) {
  git_object* raw = nullptr;
  if (git_object_lookup(&raw, repo, &oid, GIT_OBJECT_COMMIT) != 0)
    return gitError(ErrorCode::IoError, "no commit " + oidHex(oid) + " for worktree '" + name + "'", name);
  GitPtr<git_object> commit(raw);
  git_reference* ref = nullptr;
  const std::string branch = "loopwright-worktree-" + name;
  if (git_branch_create(&ref, repo, branch.c_str(), reinterpret_cast<git_commit*>(commit.get()), 0) != 0)
    return gitError(ErrorCode::IoError, "cannot create the temporary branch " + branch, name);
  return GitPtr<git_reference>(ref);
}

Result<LinkedWorktree> addWith(git_repository* repo, const std::string& name, const fs::path& path, const git_oid& oid,
                               LinkedWorktree made) {
  auto branch = temporaryBranch(repo, name, oid);
  if (!branch) return branch.error();
  git_worktree_add_options opts = GIT_WORKTREE_ADD_OPTIONS_INIT;
  opts.ref = branch->get();
  opts.checkout_options.checkout_strategy = GIT_CHECKOUT_FORCE;
  git_worktree* raw = nullptr;
  Status status = Ok{};
  if (git_worktree_add(&raw, repo, name.c_str(), path.c_str(), &opts) != 0)
    status = gitError(ErrorCode::IoError, "cannot add worktree '" + name + "' at " + path.string(), name);
  WorktreePtr wt(raw);
  if (status) status = detachHead(wt.get(), oid, name);
  if (git_branch_delete(branch->get()) != 0 && status)
    status = gitError(ErrorCode::IoError, "cannot delete the temporary branch of worktree '" + name + "'", name);
  if (!status) return status.error();
  return made;
}

}  // namespace

Result<std::string> headCommit(const fs::path& repo) {
  auto opened = openRepository(repo.string());
  if (!opened) return opened.error();
  git_oid oid;
  if (git_reference_name_to_id(&oid, opened->get(), "HEAD") != 0)
    return gitError(ErrorCode::IoError, "HEAD of " + repo.string() + " names no commit", repo.string());
  return oidHex(oid);
}

Result<LinkedWorktree> addDetachedWorktree(const fs::path& repo, const std::string& name, const fs::path& path,
                                           const std::string& commit) {
  auto opened = openRepository(repo.string());
  if (!opened) return opened.error();
  git_oid oid;
  if (!parseOid(commit, oid)) return makeError(ErrorCode::IoError, "'" + commit + "' is not a commit id", "", name);
  LinkedWorktree made;
  made.name = name;
  made.path = path;
  made.commonDir = commonDirOf(opened->get());
  made.adminDir = made.commonDir / "worktrees" / name;
  made.commit = commit;
  const std::vector<fs::path> madeForBranch = missingBranchDirs(made.commonDir);
  auto added = addWith(opened->get(), name, path, oid, made);
  for (const fs::path& dir : madeForBranch) removeIfEmpty(dir);
  if (!added) (void)removeWorktree(repo, name, path);
  return added;
}

Status removeWorktree(const fs::path& repo, const std::string& name, const fs::path& path) {
  // The files first, with what a step made read-only: libgit2's own removal
  // of the working tree would fail there after the administrative directory
  // was gone, leaving files no prune would find again.
  removeTree(path);
  auto opened = openRepository(repo.string());
  if (!opened) return opened.error();
  git_worktree* raw = nullptr;
  // Gone already (an earlier teardown got this far): only the files are left to remove.
  if (git_worktree_lookup(&raw, opened->get(), name.c_str()) == 0) {
    WorktreePtr wt(raw);
    git_worktree_prune_options opts = GIT_WORKTREE_PRUNE_OPTIONS_INIT;
    opts.flags = GIT_WORKTREE_PRUNE_VALID | GIT_WORKTREE_PRUNE_LOCKED | GIT_WORKTREE_PRUNE_WORKING_TREE;
    if (git_worktree_prune(wt.get(), &opts) != 0)
      return gitError(ErrorCode::IoError, "cannot prune worktree '" + name + "'", name);
  }
  std::error_code ec;
  if (fs::exists(path, ec))
    return makeError(ErrorCode::IoError, "cannot remove the worktree " + path.string(), "", name);
  // Git's own prune removes an empty worktrees/ too (builtin/worktree.c,
  // delete_worktrees_dir_if_empty): the checkout is left as before the first add.
  removeIfEmpty(commonDirOf(opened->get()) / "worktrees");
  return Ok{};
}

}  // namespace lw::verify
