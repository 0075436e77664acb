// Which review threads a person resolved, read through GraphQL from the fake
// GitHub server (support/fake_github_graphql.h), and how the fake answers a
// request that is not the query, as GitHub does.
#include <regex>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/rest/review_threads.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

const RepoRef kRepoRef{FakeGithub::kOwner, FakeGithub::kRepo};

std::int64_t lastCommentId(const FakeGithub& gh, int pull) {
  return gh.reviewComments(pull).back().at("id").as_int64();
}

std::int64_t addComment(FakeGithub& gh, const std::string& body, int line) {
  gh.addReviewComment(7, FakeGithub::kLogin, body, "src/app.c", line);
  return lastCommentId(gh, 7);
}

// A raw POST /graphql, for what the client never sends.
http::Response rawPost(Harness& h, const std::string& body, bool withToken = true) {
  http::Request req;
  req.method = "POST";
  req.url = h.gh.url() + "/graphql";
  req.body = body;
  req.timeout = std::chrono::milliseconds(2000);
  req.headers = {{"X-GitHub-Api-Version", kApiVersion}, {"Content-Type", "application/json"}};
  if (withToken) req.headers.emplace_back("Authorization", std::string("Bearer ") + FakeGithub::kToken);
  return h.transport.send(req);
}

std::string why(const Result<std::set<std::int64_t>>& r) { return r.ok() ? "" : r.error().message; }

// The next `times` POSTs to /graphql answer `status` with `body`.
FakeGithub::Script graphqlAnswer(int status, std::string body = R"({"message":"scripted failure"})", int times = 1) {
  FakeGithub::Script s;
  s.method = "POST";
  s.pathContains = "/graphql";
  s.status = status;
  s.body = std::move(body);
  s.times = times;
  return s;
}

std::string firstErrorMessage(const http::Response& r) {
  json::value v = json::parse(r.body);
  return std::string(v.at("errors").at(0).at("message").as_string());
}

}  // namespace

TEST_CASE("review threads: only the comments of a thread a person resolved are returned") {
  Harness h;
  std::int64_t kept = addComment(h.gh, "finding one", 2);
  std::int64_t resolved = addComment(h.gh, "finding two", 51);
  std::int64_t reply = h.gh.addReviewReply(7, "octocat", "fixed it", resolved);
  std::int64_t otherReply = h.gh.addReviewReply(7, "octocat", "not this one", kept);

  auto none = resolvedThreadComments(*h.client, kRepoRef, 7);
  REQUIRE_MESSAGE(none.ok(), why(none));
  CHECK(none->empty());

  h.gh.resolveThread(resolved);
  auto some = resolvedThreadComments(*h.client, kRepoRef, 7);
  REQUIRE_MESSAGE(some.ok(), why(some));
  // The reply joins its parent's thread; the other thread stays open.
  CHECK(*some == std::set<std::int64_t>{resolved, reply});
  CHECK(some->count(otherReply) == 0);

  h.gh.unresolveThread(reply);  // any comment of the thread names it
  auto again = resolvedThreadComments(*h.client, kRepoRef, 7);
  REQUIRE(again.ok());
  CHECK(again->empty());

  // One POST to the GraphQL endpoint per call, with the variables.
  CHECK(h.gh.count("POST", "/graphql") == 3);
  json::value sent = json::parse(h.gh.requests().back().body);
  CHECK(sent.at("variables") == json::parse(R"({"owner":"octo","name":"hello","number":7,"cursor":null})"));
}

TEST_CASE("review threads: every page is read when there are more threads than a page holds") {
  Harness h;
  h.gh.setGraphqlPageLimit(2);
  std::set<std::int64_t> expected;
  for (int i = 0; i < 5; ++i) {
    std::int64_t id = addComment(h.gh, "finding " + std::to_string(i), 2 + i);
    if (i % 2 == 0) {
      h.gh.resolveThread(id);
      expected.insert(id);
    }
  }
  auto got = resolvedThreadComments(*h.client, kRepoRef, 7);
  REQUIRE_MESSAGE(got.ok(), why(got));
  CHECK(*got == expected);  // threads 1, 3 and 5: on pages 1, 2 and 3
  REQUIRE(h.gh.count("POST", "/graphql") == 3);
  auto requests = h.gh.requests();
  CHECK(json::parse(requests[0].body).at("variables").at("cursor").is_null());
  CHECK(json::parse(requests[1].body).at("variables").at("cursor").is_string());
  CHECK(json::parse(requests[2].body).at("variables").at("cursor") !=
        json::parse(requests[1].body).at("variables").at("cursor"));
}

TEST_CASE("review threads: a fork's read-only token may still ask") {
  Harness h;
  std::int64_t id = addComment(h.gh, "finding", 2);
  h.gh.resolveThread(id);
  h.gh.setReadOnly(true);
  auto got = resolvedThreadComments(*h.client, kRepoRef, 7);
  REQUIRE_MESSAGE(got.ok(), why(got));
  CHECK(*got == std::set<std::int64_t>{id});
}

TEST_CASE("review threads: an errors answer is an error") {
  Harness h;
  SUBCASE("GitHub's NOT_FOUND for a pull request that does not exist") {
    auto got = resolvedThreadComments(*h.client, kRepoRef, 99);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().code == ErrorCode::PublicationFailed);
    CHECK(got.error().message == "POST " + h.gh.url() + "/graphql (review threads of octo/hello#99): GraphQL: " +
                                     "NOT_FOUND: Could not resolve to a PullRequest with the number of 99.");
  }
  SUBCASE("errors beside data, with HTTP 200") {
    h.gh.script(graphqlAnswer(
        200,
        R"({"data":{"repository":null},"errors":[{"type":"FORBIDDEN","message":"Resource not accessible by integration"}]})"));
    auto got = resolvedThreadComments(*h.client, kRepoRef, 7);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().message.find("GraphQL: FORBIDDEN: Resource not accessible by integration") != std::string::npos);
    CHECK(got.error().hint == "the token needs pull-requests: read");
  }
  SUBCASE("an answer that is not JSON") {
    h.gh.script(graphqlAnswer(200, "<html>"));
    auto got = resolvedThreadComments(*h.client, kRepoRef, 7);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().message.find("$: expected an object, found null") != std::string::npos);
  }
}

TEST_CASE("review threads: a failing or unreachable server is the client's error") {
  SUBCASE("a 502 is retried: the query changes nothing") {
    Harness h;
    std::int64_t id = addComment(h.gh, "finding", 2);
    h.gh.resolveThread(id);
    h.gh.script(graphqlAnswer(502));
    auto got = resolvedThreadComments(*h.client, kRepoRef, 7);
    REQUIRE_MESSAGE(got.ok(), why(got));
    CHECK(*got == std::set<std::int64_t>{id});
    CHECK(h.gh.count("POST", "/graphql") == 2);
  }
  SUBCASE("500 on every try") {
    Harness h;
    h.gh.script(graphqlAnswer(500, R"({"message":"scripted failure"})", 100));
    auto got = resolvedThreadComments(*h.client, kRepoRef, 7);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().code == ErrorCode::PublicationFailed);
    CHECK(got.error().message ==
          "POST " + h.gh.url() + "/graphql (review threads of octo/hello#7): HTTP 500 (scripted failure)");
    CHECK(h.gh.count("POST", "/graphql") == 5);  // RetryPolicy::maxAttempts
  }
  SUBCASE("nothing listening") {
    Harness h;
    RestConfig config = h.client->config();
    config.apiUrl = "http://127.0.0.1:1";
    RestClient unreachable(h.transport, h.clock, h.sleeper, config, &h.log);
    auto got = resolvedThreadComments(unreachable, kRepoRef, 7);
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().code == ErrorCode::PublicationFailed);
    CHECK(got.error().message.rfind("POST http://127.0.0.1:1/graphql: ", 0) == 0);
  }
}

TEST_CASE("fake github: POST /graphql refuses what GitHub refuses") {
  Harness h;
  SUBCASE("a body that is not JSON: 400") {
    auto r = rawPost(h, "query { viewer { login } }");
    CHECK(r.status == 400);
    CHECK(json::parse(r.body).at("message") == "Problems parsing JSON");
  }
  SUBCASE("no query string: 200 with errors") {
    for (const char* body : {R"({"variables":{}})", R"({"query":7})", "[]"}) {
      CAPTURE(body);
      auto r = rawPost(h, body);
      CHECK(r.status == 200);
      CHECK(firstErrorMessage(r) == "A query attribute must be specified and must be a string.");
    }
  }
  std::string query(reviewThreadsRequest(kRepoRef, 7, std::nullopt).at("query").as_string());
  auto withVariables = [&](const std::string& variables) {
    return json::serialize(json::object{{"query", query}, {"variables", json::parse(variables)}});
  };
  SUBCASE("variables that are not an object") {
    auto r = rawPost(h, withVariables(R"("owner=octo")"));
    CHECK(r.status == 200);
    CHECK(firstErrorMessage(r) == "Variables are invalid JSON.");
  }
  SUBCASE("a variable of the wrong type") {
    auto r = rawPost(h, withVariables(R"({"owner":"octo","name":"hello","number":"7"})"));
    CHECK(firstErrorMessage(r) == "Variable $number of type Int! was provided invalid value");
  }
  SUBCASE("a cursor it never gave out") {
    auto r = rawPost(h, withVariables(R"({"owner":"octo","name":"hello","number":7,"cursor":"bogus"})"));
    CHECK(firstErrorMessage(r) == "`bogus` does not appear to be a valid cursor.");
  }
  SUBCASE("more than 100 records asked of a connection") {
    std::string big = std::regex_replace(query, std::regex("reviewThreads\\(first: 100"), "reviewThreads(first: 101");
    auto r = rawPost(h, json::serialize(json::object{
                            {"query", big}, {"variables", {{"owner", "octo"}, {"name", "hello"}, {"number", 7}}}}));
    CHECK(firstErrorMessage(r) ==
          "Requesting 101 records on the `reviewThreads` connection exceeds the `first` limit of 100 records.");
  }
  SUBCASE("no token: 401") {
    auto r = rawPost(h, withVariables(R"({"owner":"octo","name":"hello","number":7})"), false);
    CHECK(r.status == 401);
    CHECK(json::parse(r.body).at("message") == "This endpoint requires you to be authenticated.");
  }
}
