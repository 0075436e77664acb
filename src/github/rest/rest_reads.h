// The bridge's GitHub reads over the REST API, for when the local clone
// cannot answer (or the read is not in a clone at all: the pull request's
// metadata, issues, search, labels). Each read names the endpoint it calls;
// lists are paged through Link and bounded by ReadLimits. Not thread-safe
// (RestClient is meant for one thread): callers serialize.
#pragma once

#include <string>
#include <vector>

#include "core/github_reads.h"
#include "github/rest/repo_ref.h"
#include "github/rest/rest_client.h"
#include "github/rest/search_limiter.h"

namespace lw::github {

class RestReads {
 public:
  // `clock` and `sleeper` pace searches under `limiter`; all must outlive this.
  RestReads(RestClient& api, const WallClock& clock, Sleeper& sleeper, SearchLimiter& limiter, RepoRef repo,
            ReadLimits limits = {});

  // GET pulls/{n}.
  Result<PullSummary> pull(int number);
  // GET pulls/{n} as application/vnd.github.diff; incremental scopes GET
  // compare/{base}...{head}. A 406 (GitHub will not render a diff that
  // large) fails naming the limit.
  Result<PullDiff> diff(int number, const DiffScope& scope);
  // GET pulls/{n}/files (paged, at most limits.maxFiles: GitHub stops at
  // 3000); incremental scopes GET compare/{base}...{head} (300 files at most).
  Result<PullFiles> files(int number, const DiffScope& scope);
  // GET contents/{path}?ref={commit} for the blob's sha and size, then its
  // bytes as application/vnd.github.raw. An empty `commit` reads the
  // default branch.
  Result<FileAtRef> file(const std::string& commit, const std::string& path, TreeSide side);
  // GET issues/{n} and issues/{n}/comments (paged, at most limits.maxComments).
  Result<IssueThread> issue(int number);
  // GET search/issues?q=repo:{owner}/{name} {words}, paced by the limiter.
  Result<IssueSearch> search(const std::string& words, int maxResults);
  // GET labels (paged).
  Result<std::vector<RepoLabel>> labels();
  // GET compare/{ancestor}...{descendant}: "ahead" or "identical".
  Result<bool> isAncestor(const std::string& ancestor, const std::string& descendant);

 private:
  std::string repoPath() const;
  Result<HttpResponse> getOk(const std::string& path, const std::string& what, const std::string& hint,
                             const std::string& accept = kJsonMedia);
  Result<boost::json::array> pages(const std::string& path, const std::string& what, const std::string& hint,
                                   std::size_t maxItems, bool& truncated);

  RestClient& api_;
  const WallClock& clock_;
  Sleeper& sleeper_;
  SearchLimiter& limiter_;
  RepoRef repo_;
  ReadLimits limits_;
};

// The search query sent for a step's `words`: "repo:{owner}/{name} {words}".
// Fails (USAGE_ERROR) when the words carry a qualifier that would widen the
// scope (repo:, org:, user:), which only the orchestrator sets.
Result<std::string> scopedSearchQuery(const RepoRef& repo, const std::string& words);

// The Error a read answers for a final non-2xx response: 404 is notFound();
// 401/403 name the permission (`hint`); 422 is USAGE_ERROR with GitHub's
// message; anything else IO_ERROR with the status.
Error readError(const std::string& what, const HttpResponse& response, const std::string& hint);

}  // namespace lw::github
