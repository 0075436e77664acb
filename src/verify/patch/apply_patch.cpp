#include "verify/patch/apply_patch.h"

namespace lw::verify {

Result<GitPtr<git_tree>> treeWithPatch(git_repository* repo, git_tree* base, std::string_view patch) {
  git_diff* diffRaw = nullptr;
  if (git_diff_from_buffer(&diffRaw, patch.data(), patch.size()) != 0)
    return gitError(ErrorCode::IoError, "the patch does not parse");
  GitPtr<git_diff> diff(diffRaw);
  git_index* indexRaw = nullptr;
  if (git_apply_to_tree(&indexRaw, repo, base, diff.get(), nullptr) != 0)
    return gitError(ErrorCode::IoError, "the patch does not apply to its base commit");
  GitPtr<git_index> index(indexRaw);
  git_oid treeOid;
  if (git_index_write_tree_to(&treeOid, index.get(), repo) != 0)
    return gitError(ErrorCode::IoError, "cannot write the new tree");
  git_tree* newTree = nullptr;
  if (git_tree_lookup(&newTree, repo, &treeOid) != 0) return gitError(ErrorCode::IoError, "cannot read the new tree");
  return GitPtr<git_tree>(newTree);
}

Result<git_oid> commitWithPatch(git_repository* repo, const git_oid& base, std::string_view patch,
                                const CommitIdentity& who, const std::string& message) {
  auto baseTree = commitTree(repo, base);
  if (!baseTree) return baseTree.error();
  auto tree = treeWithPatch(repo, baseTree->get(), patch);
  if (!tree) return tree.error();
  return commitTreeOnto(repo, base, tree->get(), who, message);
}

}  // namespace lw::verify
