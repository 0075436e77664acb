#include "pipeline/review/incremental_review.h"

#include <chrono>
#include <ostream>

#include "github/publish/channels/publisher.h"
#include "github/publish/last_reviewed.h"
#include "github/rest/live_rest_client.h"
#include "github/rest/rest_client.h"
#include "pipeline/review/local_git_reads.h"
#include "verify/git/libgit2.h"

namespace lw::pipeline {

bool wantsIncrementalReview(const github::GithubEvent& event) {
  return event.isPullRequest && event.number > 0 && event.action == "synchronize" &&
         (event.name == "pull_request" || event.name == "pull_request_target");
}

Result<bool> isAncestorCommit(const std::string& repoDir, const std::string& ancestor, const std::string& descendant) {
  verify::ensureLibGit2();
  return LocalGitReads(repoDir).isAncestor(ancestor, descendant);
}

std::string lastReviewedHeadFor(const github::GithubEvent& event, const std::filesystem::path& repo,
                                const Environment& env, std::ostream& log) {
  if (!wantsIncrementalReview(event)) return {};
  github::RestConfig config = github::restConfigFromEnvironment(env);
  if (config.token.empty()) return {};
  github::LiveRestClient client(config, &log);
  github::RestClient& api = client.api();
  auto last =
      github::findLastReviewedHead(api, event.repository, event.number, github::PublisherConfig{}.fallbackLogin);
  if (!last) {
    log << "loopwright: reviewing the whole change: the last reviewed head could not be read (" << last.error().message
        << ")\n";
    return {};
  }
  if (!*last) return {};
  auto ancestor = isAncestorCommit(repo.string(), **last, event.headSha);
  if (!ancestor || !*ancestor) {
    // A force-push rewrote the reviewed commits: what changed since them is
    // not a diff of the new head, so everything is reviewed again.
    log << "loopwright: reviewing the whole change: the last reviewed head " << last->value().substr(0, 12)
        << (ancestor ? " is not below the new head" : " is not in the clone (" + ancestor.error().message + ")")
        << "\n";
    return {};
  }
  return **last;
}

}  // namespace lw::pipeline
