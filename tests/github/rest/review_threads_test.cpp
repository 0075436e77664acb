#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "github/rest/review_threads.h"

using namespace lw;
using namespace lw::github;
namespace json = boost::json;

namespace {

// One page of GraphQL's answer, `threads` being the reviewThreads nodes.
json::value page(json::array threads, bool hasNext = false, json::value endCursor = nullptr) {
  return json::object{{"data",
                       {{"repository",
                         {{"pullRequest",
                           {{"reviewThreads",
                             {{"pageInfo", {{"hasNextPage", hasNext}, {"endCursor", std::move(endCursor)}}},
                              {"nodes", std::move(threads)}}}}}}}}}};
}

json::value thread(bool resolved, json::array ids) {
  json::array nodes;
  for (auto& id : ids) nodes.push_back(json::object{{"fullDatabaseId", std::move(id)}});
  return json::object{{"isResolved", resolved}, {"comments", {{"nodes", std::move(nodes)}}}};
}

}  // namespace

TEST_CASE("review threads: the GraphQL endpoint beside the REST API") {
  CHECK(graphqlUrlFor("https://api.github.com") == "https://api.github.com/graphql");
  CHECK(graphqlUrlFor("https://api.github.com/") == "https://api.github.com/graphql");
  CHECK(graphqlUrlFor("https://ghe.example/api/v3") == "https://ghe.example/api/graphql");
  CHECK(graphqlUrlFor("https://ghe.example/api/v3/") == "https://ghe.example/api/graphql");
  CHECK(graphqlUrlFor("http://127.0.0.1:8080") == "http://127.0.0.1:8080/graphql");
}

TEST_CASE("review threads: the request carries owner, name, number and cursor as variables") {
  json::value first = reviewThreadsRequest({"octo", "hello"}, 7, std::nullopt);
  CHECK(first.at("variables") == json::parse(R"({"owner":"octo","name":"hello","number":7,"cursor":null})"));
  json::value next = reviewThreadsRequest({"octo", "hello"}, 7, std::string("Y3Vyc29y"));
  CHECK(next.at("variables").at("cursor") == "Y3Vyc29y");

  // The names never reach the query's text: a name that would close a
  // GraphQL string leaves it as it is.
  json::value hostile = reviewThreadsRequest({"a\") { viewer { login } } #", "x"}, 1, std::nullopt);
  CHECK(hostile.at("query") == first.at("query"));
  const std::string query(first.at("query").as_string());
  CHECK(query.find("reviewThreads(first: 100, after: $cursor)") != std::string::npos);
  CHECK(query.find("comments(first: 100)") != std::string::npos);
  CHECK(query.find("fullDatabaseId") != std::string::npos);
}

TEST_CASE("review threads: a page yields the comment ids of resolved threads only") {
  auto read = readReviewThreadsPage(
      page(json::array{thread(true, {"11", "12"}), thread(false, {"21"}), thread(true, {"3000000001"})}));
  REQUIRE(read.ok());
  // 3000000001 does not fit GraphQL's 32-bit Int: why the id is a BigInt string.
  CHECK(read->resolvedCommentIds == std::set<std::int64_t>{11, 12, 3000000001});
  CHECK_FALSE(read->nextCursor.has_value());
}

TEST_CASE("review threads: hasNextPage gives the cursor of the next page") {
  auto read = readReviewThreadsPage(page(json::array{thread(false, {"1"})}, true, "Y3Vyc29yOnYyOjE="));
  REQUIRE(read.ok());
  CHECK(read->nextCursor == std::optional<std::string>("Y3Vyc29yOnYyOjE="));
}

TEST_CASE("review threads: null threads and comments without an id are skipped") {
  json::array comments{json::object{{"fullDatabaseId", nullptr}}, nullptr, json::object{{"fullDatabaseId", "5"}}};
  json::value t = json::object{{"isResolved", true}, {"comments", {{"nodes", comments}}}};
  auto read = readReviewThreadsPage(page(json::array{nullptr, t}));
  REQUIRE(read.ok());
  CHECK(read->resolvedCommentIds == std::set<std::int64_t>{5});
}

TEST_CASE("review threads: an errors array is an error, even beside data") {
  json::value answer = page(json::array{thread(true, {"1"})});
  answer.as_object()["errors"] =
      json::array{json::object{{"type", "FORBIDDEN"}, {"message", "Resource not accessible by integration"}},
                  json::object{{"message", "second"}}};
  auto read = readReviewThreadsPage(answer);
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().code == ErrorCode::PublicationFailed);
  CHECK(read.error().message == "GraphQL: FORBIDDEN: Resource not accessible by integration (and 1 more)");
  CHECK(read.error().hint == "the token needs pull-requests: read");

  auto bare = readReviewThreadsPage(
      json::parse(R"({"errors":[{"message":"A query attribute must be specified and must be a string."}]})"));
  REQUIRE_FALSE(bare.ok());
  CHECK(bare.error().message == "GraphQL: A query attribute must be specified and must be a string.");
}

TEST_CASE("review threads: an answer that is not the documented shape is an error naming where") {
  const std::string threads = "data.repository.pullRequest.reviewThreads";
  struct Case {
    const char* name;
    json::value answer;
    std::string message;
  };
  json::value noCursor = page(json::array{}, true, nullptr);
  json::value badResolved =
      page(json::array{json::object{{"isResolved", "yes"}, {"comments", {{"nodes", json::array{}}}}}});
  std::vector<Case> cases{
      {"not JSON (read as null)", json::value(nullptr), "$: expected an object, found null"},
      {"no data", json::object{}, "data: required field is missing"},
      {"repository null without errors", json::parse(R"({"data":{"repository":null}})"),
       "data.repository: required field is missing"},
      {"nodes not a list",
       json::parse(
           R"({"data":{"repository":{"pullRequest":{"reviewThreads":{"pageInfo":{"hasNextPage":false},"nodes":{}}}}}})"),
       threads + ".nodes: expected an array, found an object"},
      {"a next page without a cursor", noCursor, threads + ".pageInfo.endCursor: required when hasNextPage is true"},
      {"isResolved not a boolean", badResolved, threads + ".nodes[0].isResolved: expected a boolean, found a string"},
      {"an id that is not a number", page(json::array{thread(true, {"12abc"})}),
       threads + ".nodes[0].comments.nodes[0].fullDatabaseId: expected a comment id (a decimal string)"},
      {"a negative id", page(json::array{thread(true, {"-5"})}),
       threads + ".nodes[0].comments.nodes[0].fullDatabaseId: expected a comment id (a decimal string)"},
      {"an id past 64 bits", page(json::array{thread(true, {"99999999999999999999"})}),
       threads + ".nodes[0].comments.nodes[0].fullDatabaseId: expected a comment id (a decimal string)"},
  };
  for (const auto& c : cases) {
    SUBCASE(c.name) {
      auto read = readReviewThreadsPage(c.answer);
      REQUIRE_FALSE(read.ok());
      CHECK(read.error().code == ErrorCode::PublicationFailed);
      CHECK(read.error().message == c.message);
    }
  }
}
