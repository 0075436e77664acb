#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

std::vector<StageResult> mixedStages() {
  Finding multi = finding(Severity::Warning, "src/app.c", 3, "range in one hunk", "lint", "lint/range", 5);
  Finding suggest = finding(Severity::Notice, "src/app.c", 50, "prefer const", "lint", "lint/const");
  suggest.suggestion = "const int a50 = 0;";
  return {StageResult{"review",
                      {finding(Severity::Error, "src/app.c", 2, "SQL built from input"),
                       finding(Severity::Error, "src/app.c", 30, "outside the diff"),
                       finding(Severity::Warning, "", 0, "the change as a whole lacks tests", "docs", "docs/tests")}},
          StageResult{"lint", {multi, suggest, finding(Severity::Warning, "docs/guide.md", 4, "typo")}}};
}

}  // namespace

TEST_CASE("publish: one review with inline comments on the right lines, a check run per stage, summary and outputs") {
  Harness h;
  auto request = prRequest(mixedStages());
  auto outcome = h.publisher().publish(request);
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  CHECK(outcome->complete);
  CHECK(outcome->annotations.empty());

  json::array reviews = h.gh.reviews(7);
  REQUIRE(reviews.size() == 1);
  CHECK(reviews[0].at("state") == "COMMENTED");
  CHECK(reviews[0].at("commit_id") == kHeadSha);
  std::string body(reviews[0].at("body").as_string());
  CHECK(body.find(reviewMarker(kHeadSha, "run-1", Origin::Trusted)) != std::string::npos);
  CHECK(body.find("outside the diff") != std::string::npos);
  CHECK(body.find("lacks tests") != std::string::npos);

  json::array comments = h.gh.reviewComments(7);
  REQUIRE(comments.size() == 4);
  std::map<std::string, json::object> byMessage;
  for (const auto& c : comments) {
    std::string b(c.at("body").as_string());
    for (const char* key : {"SQL built", "range in one hunk", "prefer const", "typo"})
      if (b.find(key) != std::string::npos) byMessage[key] = c.as_object();
  }
  REQUIRE(byMessage.size() == 4);
  CHECK(byMessage["SQL built"].at("path") == "src/app.c");
  CHECK(byMessage["SQL built"].at("line") == 2);
  CHECK(byMessage["SQL built"].at("side") == "RIGHT");
  CHECK_FALSE(byMessage["SQL built"].contains("start_line"));
  CHECK(byMessage["range in one hunk"].at("start_line") == 3);
  CHECK(byMessage["range in one hunk"].at("line") == 5);
  CHECK(byMessage["typo"].at("path") == "docs/guide.md");
  CHECK(std::string(byMessage["prefer const"].at("body").as_string()).find("```suggestion\nconst int a50 = 0;\n```") !=
        std::string::npos);

  json::array runs = h.gh.checkRuns();
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].at("name") == "loopwright / review");
  CHECK(runs[0].at("status") == "completed");
  CHECK(runs[0].at("conclusion") == "failure");
  CHECK(runs[1].at("name") == "loopwright / lint");
  CHECK(runs[1].at("conclusion") == "success");
  CHECK(h.gh.annotations(runs[0].at("id").as_int64()).size() == 2);  // the whole-change finding has no path
  CHECK(h.gh.annotations(runs[1].at("id").as_int64()).size() == 3);

  // Every request carried the standard headers.
  for (const auto& r : h.gh.requests()) {
    CHECK(r.headers.at("x-github-api-version") == "2022-11-28");
    CHECK(r.headers.at("user-agent").rfind("loopwright/", 0) == 0);
  }

  std::string summary = readFile(h.publisherConfig.stepSummaryPath);
  CHECK(summary.find("| review | security | linux-bwrap | networkIsolation, syscallFiltering | 1.5 s | 0 | loop warn: "
                     "github.pulls.diff x3 | ok |") != std::string::npos);
  CHECK(summary.find("### Findings (6)") != std::string::npos);
  CHECK(summary.find("| review | posted |") != std::string::npos);
  std::string outputs = readFile(h.publisherConfig.outputPath);
  CHECK(outputs.find("conclusion<<ghadelimiter_") == 0);
  CHECK(outputs.find("\nfindings<<ghadelimiter_") != std::string::npos);
  CHECK(outputs.find("\npublished<<") != std::string::npos);

  // The outbox entry is finished.
  auto pending = h.outbox.pending();
  REQUIRE(pending.ok());
  CHECK(pending->empty());
}

TEST_CASE("publish: a re-run posts nothing new") {
  Harness h;
  REQUIRE(h.publisher().publish(prRequest(mixedStages(), "run-1")).ok());
  std::size_t before = h.writes();
  auto again = h.publisher().publish(prRequest(mixedStages(), "run-2"));
  REQUIRE(again.ok());
  CHECK(h.writes() == before);
  CHECK(h.gh.reviews(7).size() == 1);
  CHECK(h.gh.reviewComments(7).size() == 4);
  CHECK(h.gh.checkRuns().size() == 2);
  for (const auto& c : again->channels) CHECK(c.state == ChannelState::AlreadyPosted);
}

TEST_CASE("publish: a later run resolves our outdated comments and ignores markers from others") {
  Harness h;
  REQUIRE(h.publisher().publish(prRequest(mixedStages(), "run-1")).ok());
  // Someone else copies one of our markers into their comment: it must not
  // stop us from posting, nor be edited by us.
  Finding fresh = finding(Severity::Error, "src/app.c", 52, "new problem");
  h.gh.addReviewComment(7, "mallory",
                        "copied " + findingMarker(fingerprint(fresh), Origin::Trusted, fresh.severity, fresh.step),
                        "src/app.c", 52);
  auto stages = mixedStages();
  stages[0].findings.erase(stages[0].findings.begin());  // "SQL built from input" is fixed
  stages[0].findings.push_back(fresh);
  auto out = h.publisher().publish(prRequest(stages, "run-2"));
  REQUIRE(out.ok());
  CHECK(h.gh.reviews(7).size() == 2);
  int resolved = 0, freshPosted = 0;
  for (const auto& c : h.gh.reviewComments(7)) {
    std::string b(c.at("body").as_string());
    if (b.find("**Resolved**") != std::string::npos) {
      ++resolved;
      CHECK(b.find("SQL built from input") != std::string::npos);
    }
    if (b.find("new problem") != std::string::npos && c.at("user").at("login") == FakeGithub::kLogin) ++freshPosted;
    if (c.at("user").at("login") == "mallory") CHECK(b.rfind("copied ", 0) == 0);
  }
  CHECK(resolved == 1);
  CHECK(freshPosted == 1);
}
