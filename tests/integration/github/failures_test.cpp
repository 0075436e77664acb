#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
using std::chrono::milliseconds;
namespace json = boost::json;

namespace {

StageResult oneStage() {
  return StageResult{
      "review", {finding(Severity::Error, "src/app.c", 2, "bad"), finding(Severity::Warning, "src/app.c", 51, "meh")}};
}

}  // namespace

TEST_CASE("publish failures: rate-limit waits honour the headers") {
  SUBCASE("secondary limit with retry-after") {
    Harness h;
    h.gh.script({.method = "POST",
                 .pathContains = "/reviews",
                 .times = 1,
                 .status = 403,
                 .headers = {{"retry-after", "7"}},
                 .body = R"({"message":"You have exceeded a secondary rate limit."})"});
    REQUIRE_MESSAGE(h.publisher().publish(prRequest({oneStage()})).ok(), h.log.str());
    CHECK(h.sleeper.longSleeps() == std::vector<milliseconds>{milliseconds(7000)});
    CHECK(h.gh.reviews(7).size() == 1);
    CHECK(h.log.str().find("secondary rate limit: retry-after 7 s; retrying in 7 s (try 2 of 5)") != std::string::npos);
  }
  SUBCASE("429 without retry-after waits at least a minute, then longer") {
    Harness h;
    h.gh.script({.method = "POST",
                 .pathContains = "/check-runs",
                 .times = 2,
                 .status = 429,
                 .headers = {},
                 .body = R"({"message":"too many"})"});
    REQUIRE_MESSAGE(h.publisher().publish(prRequest({oneStage()})).ok(), h.log.str());
    CHECK(h.sleeper.longSleeps() == std::vector<milliseconds>{milliseconds(60000), milliseconds(120000)});
    CHECK(h.gh.checkRuns().size() == 1);
  }
  SUBCASE("primary limit: remaining 0 waits until the reset") {
    Harness h;
    auto reset = std::chrono::duration_cast<std::chrono::seconds>(h.clock.t.time_since_epoch()).count() + 120;
    h.gh.script({.method = "GET",
                 .pathContains = "/pulls/7/comments",
                 .times = 1,
                 .status = 403,
                 .headers = {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", std::to_string(reset)}},
                 .body = R"({"message":"API rate limit exceeded"})"});
    REQUIRE_MESSAGE(h.publisher().publish(prRequest({oneStage()})).ok(), h.log.str());
    REQUIRE(!h.sleeper.longSleeps().empty());
    CHECK(h.sleeper.longSleeps().front() == milliseconds(121000));
  }
  SUBCASE("a 4xx other than a rate limit is never retried") {
    Harness h;
    h.gh.script({.method = "POST",
                 .pathContains = "/check-runs",
                 .times = 1,
                 .status = 400,
                 .headers = {},
                 .body = R"({"message":"Bad Request"})"});
    auto out = h.publisher().publish(prRequest({oneStage()}));
    REQUIRE_FALSE(out.ok());
    CHECK(out.error().code == ErrorCode::PublicationFailed);
    CHECK(h.gh.count("POST", "/check-runs") == 1);
    CHECK(h.sleeper.longSleeps().empty());
  }
}

TEST_CASE("publish failures: a 502 on the review POST does not duplicate the review") {
  SUBCASE("the review landed before the 502") {
    Harness h;
    h.gh.script({.method = "POST",
                 .pathContains = "/pulls/7/reviews",
                 .times = 1,
                 .status = 502,
                 .headers = {},
                 .body = "bad gateway",
                 .hang = false,
                 .afterEffect = true});
    REQUIRE_MESSAGE(h.publisher().publish(prRequest({oneStage()})).ok(), h.log.str());
    CHECK(h.gh.count("POST", "/pulls/7/reviews") == 1);
    CHECK(h.gh.reviews(7).size() == 1);
    CHECK(h.log.str().find("the earlier try landed; not repeating it") != std::string::npos);
  }
  SUBCASE("the review did not land") {
    Harness h;
    h.gh.script({.method = "POST",
                 .pathContains = "/pulls/7/reviews",
                 .times = 1,
                 .status = 502,
                 .headers = {},
                 .body = "bad gateway"});
    REQUIRE_MESSAGE(h.publisher().publish(prRequest({oneStage()})).ok(), h.log.str());
    CHECK(h.gh.count("POST", "/pulls/7/reviews") == 2);
    CHECK(h.gh.reviews(7).size() == 1);
    CHECK(h.sleeper.sleeps.size() >= 1);
  }
}

TEST_CASE("publish failures: a 502 after a check-run PATCH landed does not duplicate its annotations") {
  Harness h;
  std::vector<Finding> findings;
  for (int i = 0; i < 60; ++i) findings.push_back(finding(Severity::Warning, "f" + std::to_string(i) + ".c", 1, "w"));
  auto request = prRequest({StageResult{"lint", findings}});
  request.options.review = ReviewMode::None;
  h.gh.script({.method = "PATCH",
               .pathContains = "/check-runs/",
               .times = 1,
               .status = 502,
               .headers = {},
               .body = "",
               .hang = false,
               .afterEffect = true});
  REQUIRE_MESSAGE(h.publisher().publish(request).ok(), h.log.str());
  json::array runs = h.gh.checkRuns();
  REQUIRE(runs.size() == 1);
  CHECK(h.gh.annotations(runs[0].at("id").as_int64()).size() == 60);
  CHECK(runs[0].at("status") == "completed");
}

TEST_CASE("publish failures: a fork's read-only token falls back to annotations, printed and ranked") {
  Harness h;
  h.gh.setReadOnly(true);
  std::vector<Finding> findings;
  for (int i = 0; i < 12; ++i)
    findings.push_back(finding(Severity::Error, "src/outside.c", 100 + i, "e" + std::to_string(i)));
  findings.push_back(finding(Severity::Error, "src/app.c", 2, "in the diff, a:b,c\nsecond line 100%"));
  findings.push_back(finding(Severity::Warning, "src/app.c", 50, "w1"));
  findings.push_back(finding(Severity::Notice, "", 0, "whole change"));
  auto out = h.publisher().publish(prRequest({StageResult{"review", findings}}));
  REQUIRE_MESSAGE(out.ok(), h.log.str());
  CHECK(out->permissionDenied);
  CHECK_FALSE(out->complete);
  CHECK(h.gh.reviews(7).empty());
  CHECK(h.gh.checkRuns().empty());

  std::vector<std::string> lines;
  std::istringstream in(h.log.str());
  for (std::string l; std::getline(in, l);)
    if (l.rfind("::", 0) == 0) lines.push_back(l);
  REQUIRE(lines.size() == 12);  // 10 errors, 1 warning, 1 notice: within the per-step limits
  // Errors first, the one on the diff first among them; 10 errors at most.
  CHECK(lines[0] ==
        "::error file=src/app.c,line=2,title=security%3A sec/rule::in the diff, a:b,c%0Asecond line 100%25");
  CHECK(lines[1] == "::error file=src/outside.c,line=100,title=security%3A sec/rule::e0");
  CHECK(lines[9] == "::error file=src/outside.c,line=108,title=security%3A sec/rule::e8");
  CHECK(lines[10] == "::warning file=src/app.c,line=50,title=security%3A sec/rule::w1");
  CHECK(lines[11] == "::notice title=security%3A sec/rule::whole change");
  CHECK(h.log.str().find("loopwright: 3 more finding(s) exceed GitHub's annotation limits; they are listed in the step "
                         "summary\n") != std::string::npos);
  CHECK(h.log.str().find(
            "loopwright: review: permission denied: POST review: HTTP 403 "
            "(Resource not accessible by integration) (results are in the annotations and the step summary)\n") !=
        std::string::npos);
  // The three over the limit are in the step summary.
  std::string summary = readFile(h.publisherConfig.stepSummaryPath);
  for (const char* m : {"| e9 |", "| e10 |", "| e11 |"}) CHECK(summary.find(m) != std::string::npos);
  CHECK(summary.find("**15 finding(s) could not be posted to GitHub**: 12 are shown as annotations") !=
        std::string::npos);
  CHECK(h.outbox.pending()->empty());  // a refusal is final: nothing left to resume
}

namespace {

// What the local clone would say: it (wrongly) believes line 30 is in a hunk,
// so GitHub refuses the comment placed there.
class StaleLocalDiff final : public DiffSource {
 public:
  Result<std::string> unifiedDiff(const PublicationRequest&) override {
    ++calls;
    return std::string(kDiff) +
           "diff --git a/src/app.c b/src/app.c\n--- a/src/app.c\n+++ b/src/app.c\n@@ -28,0 +30,1 @@\n+x\n";
  }
  int calls = 0;
};

}  // namespace

TEST_CASE("publish failures: a 406 diff falls back to the local diff, a 422 on one comment keeps the others") {
  Harness h;
  h.gh.script({.method = "GET",
               .pathContains = "/pulls/7",
               .times = 1,
               .status = 406,
               .headers = {},
               .body = R"j({"message":"Sorry, the diff exceeded the maximum number of lines (20000)"})j"});
  StaleLocalDiff local;
  std::vector<Finding> findings = {finding(Severity::Error, "src/app.c", 2, "good one"),
                                   finding(Severity::Error, "src/app.c", 30, "refused one"),
                                   finding(Severity::Warning, "src/app.c", 50, "good two"),
                                   finding(Severity::Warning, "docs/guide.md", 1, "good three")};
  auto request = prRequest({StageResult{"review", findings}});
  request.options.checks = false;
  auto out = h.publisher(&local).publish(request);
  REQUIRE_MESSAGE(out.ok(), h.log.str());
  CHECK(local.calls == 1);
  json::array reviews = h.gh.reviews(7);
  REQUIRE(reviews.size() == 1);  // probes were pending reviews, deleted again
  CHECK(h.gh.count("DELETE", "/pulls/7/reviews/") >= 2);
  CHECK(h.gh.count("POST", "/pulls/7/reviews") >= 4);  // refused, probes, final
  CHECK(reviews[0].at("state") == "COMMENTED");
  CHECK(h.gh.reviewComments(7).size() == 3);
  std::string body(reviews[0].at("body").as_string());
  CHECK(body.find("refused one") != std::string::npos);
  CHECK_MESSAGE(h.log.str().find("1 comment(s) moved to the review body") != std::string::npos, h.log.str());
  // The fallback is said once, in words; the 406 itself is not logged as a failure.
  CHECK(h.log.str().find("over GitHub's API limits (HTTP 406): comments are placed on the local clone's diff") !=
        std::string::npos);
  CHECK(h.log.str().find("is not retried") == std::string::npos);
}

TEST_CASE("publish failures: the Actions token's 403 on GET /user is not reported, the Actions bot is the author") {
  Harness h;
  h.gh.setInstallationToken(true);
  auto out = h.publisher().publish(prRequest({StageResult{"review", {finding(Severity::Error, "src/app.c", 2, "e")}}}));
  REQUIRE_MESSAGE(out.ok(), h.log.str());
  CHECK_MESSAGE(h.log.str().find("/user") == std::string::npos, h.log.str());
  CHECK(h.gh.reviews(7).size() == 1);
}

TEST_CASE("publish failures: a request that times out is retried") {
  Harness h;
  h.gh.script({.method = "GET",
               .pathContains = "/pulls/7/reviews",
               .times = 1,
               .status = 0,
               .headers = {},
               .body = {},
               .hang = true});
  RestConfig config = h.client->config();
  config.timeout = milliseconds(300);
  RestClient fast(h.transport, h.clock, h.sleeper, config, &h.log);
  Publisher p(fast, h.outbox, h.publisherConfig, h.log);
  REQUIRE_MESSAGE(p.publish(prRequest({oneStage()})).ok(), h.log.str());
  CHECK(h.log.str().find("Timeout was reached") != std::string::npos);
  CHECK(h.gh.reviews(7).size() == 1);
}

TEST_CASE("publish failures: a publication that keeps failing stays in the outbox and resumes without duplicates") {
  Harness h;
  auto stages =
      std::vector<StageResult>{oneStage(), StageResult{"lint", {finding(Severity::Notice, "docs/guide.md", 2, "n")}}};
  // The second stage's check run cannot be created for five tries in a row.
  h.gh.script({.method = "POST",
               .pathContains = "/check-runs",
               .skip = 1,
               .times = 5,
               .status = 503,
               .headers = {},
               .body = R"({"message":"unavailable"})"});
  auto first = h.publisher().publish(prRequest(stages));
  REQUIRE_FALSE(first.ok());
  CHECK(first.error().code == ErrorCode::PublicationFailed);
  auto pending = h.outbox.pending();
  REQUIRE(pending.ok());
  REQUIRE(pending->size() == 1);
  CHECK((*pending)[0].progress.reviewDone);
  CHECK((*pending)[0].progress.checks.at("review").done);
  CHECK(readFile(h.publisherConfig.stepSummaryPath).find("publish --resume") != std::string::npos);

  auto resumed = h.publisher().resumeAll();
  REQUIRE_MESSAGE(resumed.ok(), h.log.str());
  CHECK(h.gh.reviews(7).size() == 1);
  CHECK(h.gh.checkRuns().size() == 2);
  CHECK(h.outbox.pending()->empty());
}
