#include "pipeline/review/git_diff_source.h"

#include <git2.h>

#include "verify/git/libgit2.h"

namespace lw::pipeline {
namespace {

Result<verify::GitPtr<git_tree>> treeOf(git_repository* repo, const std::string& sha) {
  git_oid oid;
  if (!verify::parseOid(sha, oid)) return makeError(ErrorCode::IoError, "'" + sha + "' is not a commit id", "");
  return verify::commitTree(repo, oid);
}

}  // namespace

Result<std::string> GitDiffSource::unifiedDiff(const github::PublicationRequest& request) {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto base = treeOf(repo->get(), baseSha_);
  if (!base) return base.error();
  auto head = treeOf(repo->get(), request.headSha);
  if (!head) return head.error();
  git_diff* raw = nullptr;
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  if (git_diff_tree_to_tree(&raw, repo->get(), base->get(), head->get(), &options) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot diff " + baseSha_ + ".." + request.headSha);
  verify::GitPtr<git_diff> diff(raw);
  return verify::patchText(diff.get());
}

}  // namespace lw::pipeline
