// readEarlierFindings and carryOpenFindings (github/publish/carry_forward.h): the
// effect half, apart from the decisions so that those are tested without a
// server.
#include <ostream>

#include <boost/json.hpp>

#include "github/publish/carry_forward.h"
#include "github/rest/own_login.h"
#include "github/rest/review_threads.h"

namespace lw::github {

Result<std::vector<CarriedFinding>> readEarlierFindings(RestClient& api, const RepoRef& repo, int number,
                                                        const std::string& fallbackLogin, std::string* note) {
  const std::string pulls = "/repos/" + repo.owner + "/" + repo.name + "/pulls/" + std::to_string(number);
  auto comments = api.getAll(pulls + "/comments");
  if (!comments) return comments.error();
  // Without GraphQL no thread counts as resolved: a finding then counts
  // longer than it should, never shorter.
  std::set<std::int64_t> resolved;
  if (auto threads = resolvedThreadComments(api, repo, number)) {
    resolved = std::move(threads).value();
  } else if (note) {
    *note = "which threads people resolved could not be read (" + threads.error().message +
            "); every open finding of an earlier review counts";
  }
  return earlierFindings(*comments, ownLogin(api, fallbackLogin), resolved);
}

void carryOpenFindings(RestClient& api, PublicationRequest& request, bool incrementalRun, std::ostream& log) {
  if (!request.isPullRequest || request.origin != Origin::Trusted) return;
  std::string note;
  auto earlier = readEarlierFindings(api, request.repo, request.number, kActionsBotLogin, &note);
  if (!note.empty()) log << "loopwright: " << note << "\n";
  if (!earlier) {
    log << "loopwright: the findings earlier reviews left open could not be read (" << earlier.error().message
        << "); the conclusion counts only this run's\n";
    return;
  }
  carryForward(request.stages, request.steps, *earlier, incrementalRun);
}

}  // namespace lw::github
