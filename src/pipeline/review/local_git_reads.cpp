#include "pipeline/review/local_git_reads.h"

#include <algorithm>
#include <tuple>

#include "verify/git/libgit2.h"

namespace lw::pipeline {
namespace {

using verify::GitPtr;

constexpr const char* kFetchCommitHint = "fetch it (actions/checkout with fetch-depth: 0)";

// The diff GitHub shows for base...head: merge base to head, renames found.
Result<GitPtr<git_diff>> rangeDiff(git_repository* repo, const DiffScope& scope) {
  auto base = verify::findCommit(repo, scope.base, kFetchCommitHint);
  if (!base) return base.error();
  auto head = verify::findCommit(repo, scope.head, kFetchCommitHint);
  if (!head) return head.error();
  auto mergeBase =
      verify::mergeBase(repo, *base, *head, "fetch the whole history (actions/checkout with fetch-depth: 0)");
  if (!mergeBase) return mergeBase.error();
  return verify::commitDiff(repo, *mergeBase, *head, /*findRenames=*/true);
}

Result<ChangedFile> changedFile(git_diff* diff, std::size_t index) {
  auto stats = verify::diffFileStats(diff, index);
  if (!stats) return stats.error();
  ChangedFile f;
  f.status = stats->change;
  f.path = f.status == FileChange::Removed ? stats->oldPath : stats->newPath;
  if (f.status == FileChange::Renamed || f.status == FileChange::Copied) f.previousPath = stats->oldPath;
  f.binary = stats->binary;
  f.additions = static_cast<int>(stats->additions);
  f.deletions = static_cast<int>(stats->deletions);
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
  std::size_t n = verify::diffFileCount(d->get());
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
  auto oid = verify::findCommit(repo->get(), commit, kFetchCommitHint);
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
  auto head = verify::headCommit(repo->get());
  if (!head) return head.error();
  return verify::oidHex(*head);
}

Result<bool> LocalGitReads::isAncestor(const std::string& ancestor, const std::string& descendant) const {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto a = verify::findCommit(repo->get(), ancestor, kFetchCommitHint);
  if (!a) return a.error();
  auto d = verify::findCommit(repo->get(), descendant, kFetchCommitHint);
  if (!d) return d.error();
  return verify::descendsFrom(repo->get(), *d, *a);
}

}  // namespace lw::pipeline
