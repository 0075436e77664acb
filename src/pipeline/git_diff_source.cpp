#include "pipeline/git_diff_source.h"

#include <git2.h>

#include "verify/libgit2.h"

namespace lw::pipeline {
namespace {

Result<verify::GitPtr<git_tree>> treeOf(git_repository* repo, const std::string& sha) {
  git_oid oid;
  if (!verify::parseOid(sha, oid))
    return makeError(ErrorCode::IoError, "'" + sha + "' is not a commit id", "");
  git_commit* commit = nullptr;
  if (git_commit_lookup(&commit, repo, &oid) != 0)
    return verify::gitError(ErrorCode::IoError, "commit " + sha + " is not in the clone");
  git_tree* tree = nullptr;
  int rc = git_commit_tree(&tree, commit);
  git_commit_free(commit);
  if (rc != 0) return verify::gitError(ErrorCode::IoError, "cannot read the tree of " + sha);
  return verify::GitPtr<git_tree>(tree);
}

}  // namespace

Result<std::string> GitDiffSource::unifiedDiff(const github::PublicationRequest& request) {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto base = treeOf(repo->get(), baseSha_);
  if (!base) return base.error();
  auto head = treeOf(repo->get(), request.headSha);
  if (!head) return head.error();
  git_diff* diff = nullptr;
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  if (git_diff_tree_to_tree(&diff, repo->get(), base->get(), head->get(), &options) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot diff " + baseSha_ + ".." + request.headSha);
  git_buf buf = GIT_BUF_INIT;
  int rc = git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH);
  git_diff_free(diff);
  if (rc != 0) return verify::gitError(ErrorCode::IoError, "cannot print the diff");
  std::string text(buf.ptr, buf.size);
  git_buf_dispose(&buf);
  return text;
}

}  // namespace lw::pipeline
