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
  if (!ref) return {"HEAD"};
  if (ref->kind == SourceRef::Kind::Commit) return {ref->name};
  return {"refs/heads/" + ref->name, "refs/remotes/origin/" + ref->name};
}

Result<GitPtr<git_tree>> treeOf(git_repository* repo, const std::optional<SourceRef>& ref) {
  for (const std::string& rev : revisionsOf(ref))
    if (auto tree = verify::revisionTree(repo, rev)) return std::move(*tree);
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
  return verify::checkoutTreeInto(opened->get(), tree->get(), target.string(), describeRef(ref));
}

}  // namespace lw::agents::reproduce
