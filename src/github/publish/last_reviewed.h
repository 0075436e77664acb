// The head commit loopwright last reviewed whole on a pull request, read
// back from the hidden marker of its latest review there, so that a
// `synchronize` run reviews only what changed since.
//   GET /repos/{o}/{r}/pulls/{n}/reviews
#pragma once

#include <optional>
#include <string>

#include <boost/json/array.hpp>

#include "core/result.h"
#include "github/publish/publication.h"
#include "github/rest/rest_client.h"

namespace lw::github {

// Pure: the head in the marker of the last review (in GitHub's order,
// oldest first) written by `ownLogin`, submitted, of a trusted run (not a
// fork's artifact) and not marked partial.
// nullopt when there is none.
std::optional<std::string> lastReviewedHead(const boost::json::array& reviews, const std::string& ownLogin);

// Asks GitHub. Whose reviews are ours: GET /user, else `fallbackLogin` (an
// installation token). Fails with the REST client's error.
Result<std::optional<std::string>> findLastReviewedHead(RestClient& api, const RepoRef& repo, int number,
                                                        const std::string& fallbackLogin);

}  // namespace lw::github
