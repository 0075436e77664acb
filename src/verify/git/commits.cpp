// The commit-level calls of libgit2.h: revisions, commits made by
// loopwright, and a tree written out to a directory.
#include "verify/git/libgit2.h"

namespace lw::verify {
namespace {

Result<GitPtr<git_object>> revisionPeeledTo(git_repository* repo, const std::string& rev, git_object_t kind,
                                            const char* kindName) {
  ensureLibGit2();
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo, rev.c_str()) != 0)
    return gitError(ErrorCode::IoError, "no revision '" + rev + "'", rev);
  GitPtr<git_object> object(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object.get(), kind) != 0)
    return gitError(ErrorCode::IoError, "'" + rev + "' is not a " + kindName, rev);
  return GitPtr<git_object>(peeled);
}

}  // namespace

Result<git_oid> revisionCommit(git_repository* repo, const std::string& rev) {
  auto commit = revisionPeeledTo(repo, rev, GIT_OBJECT_COMMIT, "commit");
  if (!commit) return commit.error();
  return *git_object_id(commit->get());
}

Result<GitPtr<git_tree>> revisionTree(git_repository* repo, const std::string& rev) {
  auto tree = revisionPeeledTo(repo, rev, GIT_OBJECT_TREE, "tree");
  if (!tree) return tree.error();
  // A peeled tree is a git_tree: libgit2's object types share one header.
  return GitPtr<git_tree>(reinterpret_cast<git_tree*>(tree->release()));
}

Status checkoutTreeInto(git_repository* repo, git_tree* tree, const std::string& dir, const std::string& what) {
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  // Written beside the repository, never into its working tree or index.
  options.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX | GIT_CHECKOUT_DONT_WRITE_INDEX;
  options.target_directory = dir.c_str();
  if (git_checkout_tree(repo, reinterpret_cast<const git_object*>(tree), &options) != 0)
    return gitError(ErrorCode::IoError, "cannot write " + what + " to " + dir, dir);
  return Ok{};
}

Result<CommitFacts> commitFacts(git_repository* repo, const git_oid& oid) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) != 0)
    return gitError(ErrorCode::IoError, "commit " + oidHex(oid) + " is not in the clone", oidHex(oid));
  GitPtr<git_commit> commit(raw);
  CommitFacts facts;
  const char* summary = git_commit_summary(raw);
  facts.summary = summary ? summary : "";
  for (unsigned int i = 0; i < git_commit_parentcount(raw); ++i) facts.parents.push_back(*git_commit_parent_id(raw, i));
  return facts;
}

Result<git_oid> commitTreeOnto(git_repository* repo, const git_oid& parent, git_tree* tree, const CommitIdentity& who,
                               const std::string& message) {
  git_commit* parentRaw = nullptr;
  if (git_commit_lookup(&parentRaw, repo, &parent) != 0)
    return gitError(ErrorCode::IoError, "commit " + oidHex(parent) + " is not in the clone", oidHex(parent));
  GitPtr<git_commit> parentCommit(parentRaw);
  git_signature* sigRaw = nullptr;
  if (git_signature_new(&sigRaw, who.name.c_str(), who.email.c_str(), who.time, 0) != 0)
    return gitError(ErrorCode::IoError, "cannot make the commit's signature");
  GitPtr<git_signature> sig(sigRaw);
  const git_commit* parents[] = {parentRaw};
  git_oid commit;
  if (git_commit_create(&commit, repo, nullptr, sig.get(), sig.get(), nullptr, message.c_str(), tree, 1, parents) != 0)
    return gitError(ErrorCode::IoError, "cannot write a commit on " + oidHex(parent), oidHex(parent));
  return commit;
}

}  // namespace lw::verify
