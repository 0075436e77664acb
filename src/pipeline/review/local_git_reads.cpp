#include "pipeline/review/local_git_reads.h"

#include <algorithm>
#include <memory>
#include <tuple>

#include <git2.h>

#include "verify/git/libgit2.h"

namespace lw::pipeline {
namespace {

using verify::GitPtr;

Result<git_oid> commitId(git_repository* repo, const std::string& sha) {
  git_oid oid;
  if (!verify::parseOid(sha, oid)) return makeError(ErrorCode::IoError, "'" + sha + "' is not a commit id");
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) != 0)
    return verify::gitError(ErrorCode::IoError, "commit " + sha + " is not in the clone",
                            "fetch it (actions/checkout with fetch-depth: 0)");
  GitPtr<git_commit> commit(raw);
  return oid;
}

// The diff GitHub shows for base...head: merge base to head, renames found.
Result<GitPtr<git_diff>> rangeDiff(git_repository* repo, const DiffScope& scope) {
  auto base = commitId(repo, scope.base);
  if (!base) return base.error();
  auto head = commitId(repo, scope.head);
  if (!head) return head.error();
  git_oid mergeBase;
  if (git_merge_base(&mergeBase, repo, &*base, &*head) != 0)
    return verify::gitError(ErrorCode::IoError, scope.base + " and " + scope.head + " have no common ancestor",
                            "fetch the whole history (actions/checkout with fetch-depth: 0)");
  auto from = verify::commitTree(repo, mergeBase);
  if (!from) return from.error();
  auto to = verify::commitTree(repo, *head);
  if (!to) return to.error();
  git_diff* raw = nullptr;
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  if (git_diff_tree_to_tree(&raw, repo, from->get(), to->get(), &options) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot diff " + scope.base + "..." + scope.head);
  GitPtr<git_diff> diff(raw);
  git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
  find.flags = GIT_DIFF_FIND_RENAMES;  // git's default (diff.renames = true), 50% similarity
  if (git_diff_find_similar(diff.get(), &find) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot detect renames in " + scope.base + "..." + scope.head);
  return diff;
}

FileChange changeOf(git_delta_t status) {
  switch (status) {
    case GIT_DELTA_ADDED: return FileChange::Added;
    case GIT_DELTA_DELETED: return FileChange::Removed;
    case GIT_DELTA_RENAMED: return FileChange::Renamed;
    case GIT_DELTA_COPIED: return FileChange::Copied;
    default: return FileChange::Modified;
  }
}

Result<ChangedFile> changedFile(git_diff* diff, std::size_t index) {
  git_patch* raw = nullptr;
  if (git_patch_from_diff(&raw, diff, index) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot read a file's changes");
  GitPtr<git_patch> patch(raw);
  const git_diff_delta* delta = git_patch_get_delta(patch.get());
  ChangedFile f;
  f.status = changeOf(delta->status);
  f.path = delta->status == GIT_DELTA_DELETED ? delta->old_file.path : delta->new_file.path;
  if (f.status == FileChange::Renamed || f.status == FileChange::Copied) f.previousPath = delta->old_file.path;
  f.binary = (delta->flags & GIT_DIFF_FLAG_BINARY) != 0;
  std::size_t context = 0, additions = 0, deletions = 0;
  if (git_patch_line_stats(&context, &additions, &deletions, patch.get()) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot count the changes of " + f.path);
  f.additions = static_cast<int>(additions);
  f.deletions = static_cast<int>(deletions);
  return f;
}

}  // namespace

Result<PullDiff> LocalGitReads::diff(const DiffScope& scope) const {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto d = rangeDiff(repo->get(), scope);
  if (!d) return d.error();
  auto text = verify::patchText(d->get());
  if (!text) return verify::gitError(ErrorCode::IoError, "cannot print the diff of " + scope.base + "..." + scope.head);
  PullDiff out;
  out.scope = scope;
  std::tie(out.diff, out.truncated) = clipUnifiedDiff(std::move(*text), limits_.diffBytes);
  return out;
}

Result<PullFiles> LocalGitReads::files(const DiffScope& scope) const {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto d = rangeDiff(repo->get(), scope);
  if (!d) return d.error();
  PullFiles out;
  out.scope = scope;
  std::size_t n = git_diff_num_deltas(d->get());
  out.truncated = n > limits_.maxFiles;
  for (std::size_t i = 0; i < n && i < limits_.maxFiles; ++i) {
    auto f = changedFile(d->get(), i);
    if (!f) return f.error();
    out.files.push_back(std::move(*f));
  }
  return out;
}

Result<FileAtRef> LocalGitReads::file(const std::string& commit, const std::string& path, TreeSide side) const {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto oid = commitId(repo->get(), commit);
  if (!oid) return oid.error();
  auto tree = verify::commitTree(repo->get(), *oid);
  if (!tree) return tree.error();
  std::string where = path + " at " + std::string(toString(side)) + " (" + commit.substr(0, 12) + ")";
  auto file = verify::fileInTree(repo->get(), tree->get(), path, ErrorCode::IoError, where);
  if (!file) return file.error();
  if (file->kind == verify::TreeFile::Kind::Missing) return notFound(where);
  if (file->kind == verify::TreeFile::Kind::NotAFile) return notFound(where + ": not a file");
  FileAtRef out;
  out.path = path;
  out.side = side;
  out.sha = file->sha;
  out.size = file->size();
  std::string bytes(file->bytes().substr(0, std::min<std::uint64_t>(out.size, limits_.fileBytes + 4)));
  out.truncated = out.size > limits_.fileBytes;
  // A few bytes past the limit let clipUtf8 end on a whole UTF-8 sequence.
  out.content = clipUtf8(std::move(bytes), limits_.fileBytes);
  if (isBinaryContent(out.content)) {
    out.binary = true;
    out.content.clear();
  }
  return out;
}

Result<std::string> LocalGitReads::headCommit() const {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  git_oid oid;
  if (git_reference_name_to_id(&oid, repo->get(), "HEAD") != 0)
    return verify::gitError(ErrorCode::IoError, "the clone has no commit checked out");
  return verify::oidHex(oid);
}

Result<bool> LocalGitReads::isAncestor(const std::string& ancestor, const std::string& descendant) const {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto a = commitId(repo->get(), ancestor);
  if (!a) return a.error();
  auto d = commitId(repo->get(), descendant);
  if (!d) return d.error();
  if (git_oid_equal(&*a, &*d)) return true;
  int rc = git_graph_descendant_of(repo->get(), &*d, &*a);
  if (rc < 0) return verify::gitError(ErrorCode::IoError, "cannot walk the history of " + descendant);
  return rc == 1;
}

}  // namespace lw::pipeline
