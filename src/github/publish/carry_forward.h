// Open findings carry forward (docs/review-coverage.md): a push that fixes
// nothing must not turn the check green. After a run, the findings earlier
// trusted reviews posted on the pull request that are still open count
// toward the new conclusion, its counts and its summary, until a reason
// says otherwise: their lines changed (GitHub takes the comment off the
// diff), a person resolved their thread, or a full review of their step no
// longer reports them. Read from loopwright's own markers of trusted origin
// only (github/publish/markers.h), never from text a step or a fork wrote.
//   GET  /repos/{o}/{r}/pulls/{n}/comments   our earlier inline comments
//   POST /graphql                            which threads people resolved
#pragma once

#include <cstdint>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include <boost/json/array.hpp>

#include "core/result.h"
#include "github/publish/publication.h"
#include "github/rest/rest_client.h"

namespace lw::github {

inline constexpr const char* kStoppedLinesChanged = "its lines changed since";
inline constexpr const char* kStoppedResolved = "a person resolved its thread";
inline constexpr const char* kStoppedFullReview = "a full review no longer reports it";

// Pure: every finding of a trusted marker on an inline comment of `ownLogin`
// that no resolved marker closed, with kStoppedLinesChanged when GitHub no
// longer places the comment on the diff (`line: null`) and kStoppedResolved
// when its id is in `resolvedThreads`. One entry per fingerprint.
std::vector<CarriedFinding> earlierFindings(const boost::json::array& comments, const std::string& ownLogin,
                                            const std::set<std::int64_t>& resolvedThreads);

// Pure: adds to each stage the earlier findings of its steps (by step name;
// the first stage when no step of the run has the name) that this run did
// not report again. One whose step reviewed the whole change in this run
// (passed, with no coverage or a complete one not limited to a push, and
// `incrementalRun` false for a step without coverage) stops with
// kStoppedFullReview.
void carryForward(std::vector<StageResult>& stages, const std::vector<StepRow>& steps,
                  const std::vector<CarriedFinding>& earlier, bool incrementalRun);

// Asks GitHub (its own login: GET /user, else `fallbackLogin`). Fails with
// the REST client's error when the comments cannot be read; when only the
// threads cannot (GraphQL), none counts as resolved and `note` says why.
Result<std::vector<CarriedFinding>> readEarlierFindings(RestClient& api, const RepoRef& repo, int number,
                                                        const std::string& fallbackLogin, std::string* note = nullptr);

// Before a pull request's run is judged: adds the open findings to
// `request` (a trusted run's only: a fork's artifact carries none); the
// caller judges the run after it (github/publish/conclusion.h). `incrementalRun`: the steps reviewed only the
// changes since an earlier head. When GitHub cannot be read, says so on
// `log` and leaves the request as it is: its publication reads the same
// comments and fails too, so no run turns green unseen.
void carryOpenFindings(RestClient& api, PublicationRequest& request, bool incrementalRun, std::ostream& log);

}  // namespace lw::github
