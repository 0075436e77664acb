#include "agents/reproduce/repro_tree.h"

#include <vector>

#include "verify/git/libgit2.h"

namespace lw::agents::reproduce {

namespace fs = std::filesystem;
using verify::GitPtr;

namespace {

// The revisions that may name `ref`, tried in order. Only validated names
// reach here (isSafeBranchName, hex commit ids), so none is an option or a
// revision expression.
std::vector<std::string> revisionsOf(const std::optional<SourceRef>& ref) {
  if (!ref) return {"HEAD^{tree}"};
  if (ref->kind == SourceRef::Kind::Commit) return {ref->name + "^{tree}"};
  return {"refs/heads/" + ref->name + "^{tree}", "refs/remotes/origin/" + ref->name + "^{tree}"};
}

Result<GitPtr<git_object>> treeOf(git_repository* repo, const std::optional<SourceRef>& ref) {
  for (const std::string& rev : revisionsOf(ref)) {
    git_object* tree = nullptr;
    if (git_revparse_single(&tree, repo, rev.c_str()) == 0) return GitPtr<git_object>(tree);
  }
  return makeError(ErrorCode::IoError, describeRef(ref) + " is not in this clone",
                   ref ? "check out the repository with its history (actions/checkout: fetch-depth: 0)"
                       : "the step's workspace has no commit checked out",
                   ref ? ref->name : "HEAD");
}

}  // namespace

std::string describeRef(const std::optional<SourceRef>& ref) {
  if (!ref) return "the default branch";
  return std::string(ref->kind == SourceRef::Kind::Branch ? "branch `" : "commit `") + ref->name + "`";
}

Status writeTree(const fs::path& repo, const std::optional<SourceRef>& ref, const fs::path& target) {
  auto opened = verify::openRepository(repo.string());
  if (!opened) return opened.error();
  auto tree = treeOf(opened->get(), ref);
  if (!tree) return tree.error();
  std::error_code ec;
  if (!fs::create_directories(target, ec))
    return makeError(ErrorCode::IoError, "cannot create " + target.string() + ": " + ec.message(), "", target.string());
  git_checkout_options options = GIT_CHECKOUT_OPTIONS_INIT;
  // Written beside the repository, never into its working tree or index.
  options.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX | GIT_CHECKOUT_DONT_WRITE_INDEX;
  const std::string dir = target.string();
  options.target_directory = dir.c_str();
  if (git_checkout_tree(opened->get(), tree->get(), &options) != 0)
    return verify::gitError(ErrorCode::IoError, "cannot write " + describeRef(ref) + " to " + dir, dir);
  return Ok{};
}

}  // namespace lw::agents::reproduce
