#include "cli/taskpack_source.h"

#include "policy/model/taskpack.h"
#include "verify/git/libgit2.h"

namespace lw::cli {

bool isPullRequestEvent(const std::string& eventName) {
  return eventName == "pull_request" || eventName == "pull_request_target";
}

Result<TaskpackText> readTaskpackAtCommit(const std::string& repoDir, const std::string& commitSha,
                                          const std::string& path) {
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
  auto tree = verify::commitTree(repo->get(), oid);
  if (!tree)
    return makeError(ErrorCode::TaskpackInvalid, "the base commit " + commitSha + " is not in " + repoDir, fetchHint,
                     source);
  auto file = verify::fileInTree(repo->get(), tree->get(), path, ErrorCode::TaskpackInvalid, source);
  if (!file) return file.error();
  if (file->kind == verify::TreeFile::Kind::Missing)
    return makeError(ErrorCode::TaskpackInvalid, "the base commit " + commitSha + " has no " + path,
                     "add the taskpack on the base branch first; a pull request cannot bring "
                     "its own",
                     source);
  if (file->kind == verify::TreeFile::Kind::NotAFile)
    return makeError(ErrorCode::TaskpackInvalid, source + " is not a file", "", source);
  if (file->size() > kTaskpackMaxBytes)
    return makeError(
        ErrorCode::TaskpackInvalid,
        source + " is " + std::to_string(file->size()) + " bytes; the limit is " + std::to_string(kTaskpackMaxBytes),
        "move long scripts into files the steps run", source);
  return TaskpackText{std::string(file->bytes()), source};
}
}  // namespace lw::cli
