// Which review threads of a pull request a person marked resolved ("Resolve
// conversation"). The REST API has no such state; only GraphQL's
// PullRequest.reviewThreads has it, so this is loopwright's GraphQL read: the
// request and the reading of one answer are pure, resolvedThreadComments()
// pages through the threads with the REST client.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

#include "core/result.h"
#include "github/rest/repo_ref.h"
#include "github/rest/rest_client.h"

namespace lw::github {

// The REST ids of the review comments of pull request `number` whose thread
// someone marked resolved on GitHub: up to 100 comments per thread, oldest
// first, so a thread's first comment (the one loopwright posts) is always
// among them. Fails with the REST client's error (or PUBLICATION_FAILED for
// an answer that is not the documented shape, or a GraphQL `errors` array).
Result<std::set<std::int64_t>> resolvedThreadComments(RestClient& api, const RepoRef& repo, int number);

// Pure: the GraphQL endpoint for a REST API base URL: https://api.github.com
// -> https://api.github.com/graphql, https://ghe.example/api/v3 ->
// https://ghe.example/api/graphql.
std::string graphqlUrlFor(std::string_view apiUrl);

// The POST body asking for the page of review threads after `cursor` (the
// first page without one): the query, and owner, name, number and cursor as
// GraphQL variables, never spliced into the query's text.
boost::json::value reviewThreadsRequest(const RepoRef& repo, int number, const std::optional<std::string>& cursor);

struct ReviewThreadsPage {
  std::set<std::int64_t> resolvedCommentIds;  // of this page's resolved threads
  std::optional<std::string> nextCursor;      // set when GitHub has a next page
};

// Reads one answer to reviewThreadsRequest(). Fails with PUBLICATION_FAILED
// on an `errors` array (even beside data), and on an answer that is not the
// documented shape, naming the JSON path.
Result<ReviewThreadsPage> readReviewThreadsPage(const boost::json::value& answer);

}  // namespace lw::github
