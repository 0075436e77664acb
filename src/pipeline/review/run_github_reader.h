// The GithubReader behind one run's bridges: the local clone first (diff,
// files, a file at base or head: no token, no API budget, no size limit of
// GitHub's), the REST API when the clone cannot answer (a commit it lacks)
// and for what is not in a clone (issues, search, labels; the pull request
// when the payload does not carry it). Shared by the run's steps: the REST
// side is used one call at a time.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <boost/json/value.hpp>

#include "core/github_reads.h"
#include "github/actions/github_event.h"
#include "github/rest/rest_reads.h"
#include "pipeline/review/local_git_reads.h"
#include "pipeline/run/run_context.h"

namespace lw::pipeline {

struct RunReadFacts {
  std::filesystem::path repoDir;
  std::optional<github::GithubEvent> event;  // unset: a local run without a payload
  boost::json::value payload;                // the event's, for the pull request it carries
  std::string lastReviewedHead;              // "" unless a synchronize after a review
};

class RunGithubReader final : public GithubReader {
 public:
  // `rest` null: no token, so only the local reads answer; `keepAlive` owns
  // what `rest` refers to.
  RunGithubReader(RunReadFacts facts, github::RestReads* rest, std::shared_ptr<void> keepAlive, ReadLimits limits = {});

  Result<PullSummary> pull() override;
  Result<PullDiff> diff(bool full) override;
  Result<PullFiles> files(bool full) override;
  Result<FileAtRef> file(const std::string& path, TreeSide side) override;
  Result<IssueThread> issue(std::optional<int> number) override;
  Result<IssueSearch> searchIssues(const std::string& words, int maxResults) override;
  Result<std::vector<RepoLabel>> labels() override;

  // What diff() and files() cover: lastReviewedHead..head on a synchronize
  // when it is set and `full` is not, else base...head.
  Result<DiffScope> scope(bool full);

 private:
  Result<PullSummary> pullLocked();
  // The commit github.file reads for `side`; "" for the default branch over REST.
  Result<std::string> commitFor(TreeSide side);
  Error needsApi(const std::string& tool) const;
  int number() const { return facts_.event ? facts_.event->number : 0; }

  RunReadFacts facts_;
  LocalGitReads local_;
  std::mutex restMu_;  // RestClient is for one thread
  github::RestReads* rest_;
  std::shared_ptr<void> keepAlive_;
};

// The run's reader: the REST side only when the environment has a token
// (GITHUB_TOKEN, GITHUB_API_URL for GitHub Enterprise Server).
std::shared_ptr<GithubReader> makeRunGithubReader(const RunContext& ctx);

}  // namespace lw::pipeline
