#include "cli/pull_event.h"

#include "github/rest/live_rest_client.h"

namespace lw::cli {

bool needsPullLookup(const github::GithubEvent& event) {
  return event.isPullRequest && event.headSha.empty() && event.number > 0;
}

void applyPull(github::GithubEvent& event, const github::PullInfo& pull) {
  event.headSha = pull.headSha;
  event.baseSha = pull.baseSha;
  event.fromFork = pull.fromFork;
}

Status completePullRequestEvent(pipeline::EventInput& event, const Environment& env, std::ostream& log) {
  if (!event.typed || !needsPullLookup(*event.typed)) return Ok{};
  const std::string which = event.name + " on pull request #" + std::to_string(event.typed->number);
  github::RestConfig config = github::restConfigFromEnvironment(env);
  if (config.token.empty())
    return makeError(ErrorCode::UsageError, "the " + which + " does not name the pull request's commits",
                     "set GITHUB_TOKEN (the action passes its github-token input) so that they can be read");
  github::LiveRestClient client(config, &log);
  github::RestClient& api = client.api();
  auto pull = github::fetchPull(api, event.typed->repository, event.typed->number);
  if (!pull) {
    Error e = std::move(pull).error();
    e.message = "cannot read the commits of the " + which + ": " + e.message;
    return e;
  }
  applyPull(*event.typed, *pull);
  event.baseSha = pull->baseSha;
  return Ok{};
}

}  // namespace lw::cli
