#include "pipeline/review/git_diff_source.h"

#include "verify/git/libgit2.h"

namespace lw::pipeline {

Result<std::string> GitDiffSource::unifiedDiff(const github::PublicationRequest& request) {
  auto repo = verify::openRepository(repoDir_);
  if (!repo) return repo.error();
  auto base = verify::findCommit(repo->get(), baseSha_);
  if (!base) return base.error();
  auto head = verify::findCommit(repo->get(), request.headSha);
  if (!head) return head.error();
  auto diff = verify::commitDiff(repo->get(), *base, *head, /*findRenames=*/false);
  if (!diff) return diff.error();
  return verify::patchText(diff->get());
}

}  // namespace lw::pipeline
