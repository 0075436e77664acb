#include "cli/taskpack_source.h"

#include <git2.h>

#include "policy/taskpack.h"
#include "verify/libgit2.h"

namespace lw::cli {

bool isPullRequestEvent(const std::string& eventName) {
  return eventName == "pull_request" || eventName == "pull_request_target";
}

Result<TaskpackText> readTaskpackAtCommit(const std::string& repoDir, const std::string& commitSha,
                                          const std::string& path) {
  using verify::GitPtr;
  const std::string source = commitSha + ":" + path;
  const std::string fetchHint =
      "the taskpack of a pull request is read from its base commit; fetch it first, e.g. "
      "actions/checkout with fetch-depth: 0, or 'git fetch --depth=1 origin " +
      commitSha + "'";
  auto repo = verify::openRepository(repoDir);
  if (!repo) return repo.error();
  git_oid oid;
  if (!verify::parseOid(commitSha, oid))
    return makeError(ErrorCode::TaskpackInvalid, "'" + commitSha + "' is not a commit id",
                     "the event's base SHA must be a full 40-hex object id", source);
  git_commit* rawCommit = nullptr;
  if (git_commit_lookup(&rawCommit, repo->get(), &oid) != 0)
    return makeError(ErrorCode::TaskpackInvalid, "the base commit " + commitSha + " is not in " + repoDir, fetchHint,
                     source);
  std::unique_ptr<git_commit, decltype(&git_commit_free)> commit(rawCommit, git_commit_free);
  git_tree* rawTree = nullptr;
  if (git_commit_tree(&rawTree, commit.get()) != 0)
    return verify::gitError(ErrorCode::TaskpackInvalid, "cannot read the tree of " + commitSha, source);
  GitPtr<git_tree> tree(rawTree);
  git_tree_entry* rawEntry = nullptr;
  if (git_tree_entry_bypath(&rawEntry, tree.get(), path.c_str()) != 0)
    return makeError(ErrorCode::TaskpackInvalid, "the base commit " + commitSha + " has no " + path,
                     "add the taskpack on the base branch first; a pull request cannot bring "
                     "its own",
                     source);
  std::unique_ptr<git_tree_entry, decltype(&git_tree_entry_free)> entry(rawEntry, git_tree_entry_free);
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB)
    return makeError(ErrorCode::TaskpackInvalid, source + " is not a file", "", source);
  git_blob* rawBlob = nullptr;
  if (git_blob_lookup(&rawBlob, repo->get(), git_tree_entry_id(entry.get())) != 0)
    return verify::gitError(ErrorCode::TaskpackInvalid, "cannot read " + source, source);
  GitPtr<git_blob> blob(rawBlob);
  auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
  if (size > kTaskpackMaxBytes)
    return makeError(
        ErrorCode::TaskpackInvalid,
        source + " is " + std::to_string(size) + " bytes; the limit is " + std::to_string(kTaskpackMaxBytes),
        "move long scripts into files the steps run", source);
  const char* data = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  return TaskpackText{std::string(data, size), source};
}

}  // namespace lw::cli
