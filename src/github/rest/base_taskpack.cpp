#include "github/rest/base_taskpack.h"

#include "core/github_reads.h"
#include "github/rest/github_http.h"
#include "github/rest/rest_reads.h"
#include "github/rest/search_limiter.h"

namespace lw::github {

namespace {

constexpr const char* kBaseTaskpackHint =
    "a fork's artifact is published only within the base repository's taskpack "
    "(docs/fork-pull-requests.md); set the action's taskpack-path input if it is elsewhere";

Error unusable(const std::string& source, const std::string& why) {
  return makeError(ErrorCode::PublicationFailed,
                   "the artifact was not published: the base taskpack " + source + " " + why, kBaseTaskpackHint,
                   source);
}

}  // namespace

Result<Taskpack> fetchBaseTaskpack(RestClient& api, const RepoRef& repo, const std::string& commit,
                                   const std::string& path, const TaskpackLoadOptions& options) {
  const std::string source = commit + ":" + path;
  // An empty ref would read the default branch: the caps are the base commit's.
  if (commit.empty())
    return makeError(ErrorCode::PublicationFailed,
                     "the artifact was not published: the pull request has no base commit to read " + path + " at",
                     kBaseTaskpackHint);
  // The clock, sleeper and limiter pace searches only; a file read never waits.
  SystemClock clock;
  ThreadSleeper sleeper;
  SearchLimiter limiter;
  ReadLimits limits;
  limits.fileBytes = kTaskpackMaxBytes;
  RestReads reads(api, clock, sleeper, limiter, repo, limits);
  auto file = reads.file(commit, path, TreeSide::Base);
  if (!file) {
    if (isNotFound(file.error())) return unusable(source, "does not exist");
    return unusable(source, "could not be read: " + file.error().message);
  }
  if (file->truncated)
    return unusable(source, "is " + std::to_string(file->size) + " bytes; a taskpack is at most " +
                                std::to_string(kTaskpackMaxBytes));
  if (file->binary) return unusable(source, "is not text");
  auto taskpack = parseTaskpack(file->content, source, options);
  if (taskpack) return taskpack;
  Error e = std::move(taskpack).error();
  Error refused = unusable(source, "is invalid: " + e.message);
  refused.diagnostics = std::move(e.diagnostics);
  refused.location = std::move(e.location);
  return refused;
}

}  // namespace lw::github
