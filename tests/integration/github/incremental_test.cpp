// Two runs on one pull request against the local GitHub server, as the
// action makes them: `opened`, then `synchronize` after a one-line change,
// reviewed only since the head the first run reviewed (read back from its
// review's marker). The second run posts nothing the first posted, resolves
// a finding that is gone, and leaves alone one a person replied to and one
// in a file it did not review. A third run whose model failed ends with a
// failing check naming the reason and is not taken as a reviewed head.
#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/channels/resolve_plan.h"
#include "github/publish/conclusion.h"
#include "github/publish/last_reviewed.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

StepRow reviewStep(Coverage coverage) {
  StepRow r;
  r.stage = "review";
  r.step = "review";
  r.backend = "linux-bwrap";
  r.outcome = StepOutcome::Passed;
  r.coverage = std::move(coverage);
  r.tokensUsed = 1200;
  return r;
}

Coverage covered(std::vector<std::pair<std::string, FileReview>> files, std::string from = {}, bool complete = true,
                 std::string reason = {}) {
  Coverage c;
  for (auto& [path, status] : files) c.files.push_back({path, status, status == FileReview::Reviewed ? "" : reason});
  c.complete = complete;
  c.reason = complete ? "" : reason;
  c.incrementalFrom = std::move(from);
  return c;
}

PublicationRequest runOf(const std::string& id, const std::string& head, std::vector<Finding> findings, StepRow step,
                         bool incremental) {
  PublicationRequest r = prRequest({StageResult{"review", std::move(findings)}}, id);
  r.headSha = head;
  r.steps = {std::move(step)};
  if (auto scope = resolveScope(r.steps, incremental))
    r.reviewedFiles = std::vector<std::string>(scope->begin(), scope->end());
  concludeRun(r);  // as pipeline/publication_builder sets it
  return r;
}

std::optional<std::string> lastHead(Harness& h) {
  auto head = findLastReviewedHead(*h.client, {FakeGithub::kOwner, FakeGithub::kRepo}, 7, "github-actions[bot]");
  REQUIRE_MESSAGE(head.ok(), (head.ok() ? "" : head.error().message));
  return *head;
}

json::object commentWith(Harness& h, const std::string& text) {
  for (const auto& c : h.gh.reviewComments(7))
    if (std::string(c.at("body").as_string()).find(text) != std::string::npos &&
        c.at("user").at("login") == FakeGithub::kLogin && !c.as_object().contains("in_reply_to_id"))
      return c.as_object();
  FAIL("no comment of ours with '" << text << "'");
  return {};
}

std::size_t ours(Harness& h, const std::string& text) {
  std::size_t n = 0;
  for (const auto& c : h.gh.reviewComments(7))
    n += std::string(c.at("body").as_string()).find(text) != std::string::npos &&
         c.at("user").at("login") == FakeGithub::kLogin;
  return n;
}

}  // namespace

TEST_CASE("incremental: opened, then synchronize reviews only the change, posts nothing twice, resolves what is gone") {
  Harness h;
  Finding sql = finding(Severity::Error, "src/app.c", 2, "SQL built from input", "review", "review/sql");
  Finding unchecked = finding(Severity::Warning, "src/app.c", 50, "unchecked return", "review", "review/errors");
  Finding magic = finding(Severity::Warning, "src/app.c", 51, "magic number", "review", "review/style");
  Finding typo = finding(Severity::Notice, "docs/guide.md", 4, "typo", "review", "review/docs");

  // pull_request.opened: the whole change, every file reviewed.
  CHECK_FALSE(lastHead(h));
  auto first = h.publisher().publish(runOf(
      "run-1", kHeadSha, {sql, unchecked, magic, typo},
      reviewStep(covered({{"src/app.c", FileReview::Reviewed}, {"docs/guide.md", FileReview::Reviewed}})), false));
  REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().message), "\n", h.log.str());
  CHECK(h.gh.reviewComments(7).size() == 4);
  CHECK(lastHead(h) == std::string(kHeadSha));

  // A person answers the "magic number" comment.
  std::int64_t magicId = commentWith(h, "magic number").at("id").as_int64();
  h.gh.addReviewReply(7, "alice", "It is the protocol's port, see RFC 1234.", magicId);
  std::string magicBody(commentWith(h, "magic number").at("body").as_string());
  std::string typoBody(commentWith(h, "typo").at("body").as_string());

  // pull_request.synchronize after a one-line change to src/app.c: the
  // review ran from the last reviewed head and looked at src/app.c only.
  // The change rewrote line 50: GitHub takes the comment there off the diff.
  h.gh.addPull(7, kHead2, kDiff);
  h.gh.markOutdated(7, commentWith(h, "unchecked return").at("id").as_int64());
  std::string from = *lastHead(h);
  Finding fresh = finding(Severity::Warning, "src/app.c", 52, "new bug on the changed line", "review", "review/bug");
  h.gh.clearRequests();
  auto second = h.publisher().publish(
      runOf("run-2", kHead2, {sql, fresh}, reviewStep(covered({{"src/app.c", FileReview::Reviewed}}, from)), true));
  REQUIRE_MESSAGE(second.ok(), (second.ok() ? "" : second.error().message), "\n", h.log.str());

  json::array reviews = h.gh.reviews(7);
  REQUIRE(reviews.size() == 2);
  std::string body(reviews[1].at("body").as_string());
  CHECK(body.find("1 new finding: 1 inline, 0 below; 1 already posted earlier.") != std::string::npos);
  CHECK(ours(h, "SQL built from input") == 1);         // never posted twice
  CHECK(ours(h, "new bug on the changed line") == 1);  // the change's finding
  std::string resolved(commentWith(h, "unchecked return").at("body").as_string());
  CHECK(resolved.rfind("**Resolved**: loopwright no longer reports this at " + kHead2.substr(0, 12), 0) == 0);
  CHECK(std::string(commentWith(h, "magic number").at("body").as_string()) == magicBody);  // a person replied
  CHECK(std::string(commentWith(h, "typo").at("body").as_string()) == typoBody);           // file not reviewed
  CHECK(h.gh.count("PATCH", "/pulls/comments/") == 1);
  CHECK(lastHead(h) == kHead2);

  json::array runs = h.gh.checkRuns();
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].at("conclusion") == "failure");  // the SQL finding is still at the fail level
  std::string summary = readFile(h.publisherConfig.stepSummaryPath);
  CHECK(summary.find("<code>review/review</code>: 1 reviewed, 0 clipped, 0 skipped (since 0123456789ab); complete") !=
        std::string::npos);
  CHECK(summary.find("Model tokens used: 1200") != std::string::npos);
}

TEST_CASE("incremental: a run whose model failed ends with a failing check naming the reason and resolves nothing") {
  Harness h;
  Finding sql = finding(Severity::Warning, "src/app.c", 2, "SQL built from input", "review", "review/sql");
  REQUIRE(
      h.publisher()
          .publish(runOf("run-1", kHeadSha, {sql}, reviewStep(covered({{"src/app.c", FileReview::Reviewed}})), false))
          .ok());
  h.gh.addPull(7, kHead3, kDiff);
  const std::string why = "model.complete failed: HTTP 503 from lane 'default' (breaker open)";
  Finding partial = finding(Severity::Notice, "src/app.c", 3, "found before the model went down", "review", "review/x");
  auto out = h.publisher().publish(
      runOf("run-3", kHead3, {partial}, reviewStep(covered({{"src/app.c", FileReview::Skipped}}, kHeadSha, false, why)),
            true));
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().message), "\n", h.log.str());

  json::array runs = h.gh.checkRuns();
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].at("conclusion") == "failure");
  std::string title(runs[1].at("output").at("title").as_string());
  CHECK(title.find("`review` did not review the whole change: " + why) != std::string::npos);
  CHECK(std::string(runs[1].at("output").at("summary").as_string()).find(why) != std::string::npos);
  // The gone SQL finding is not resolved: src/app.c was not reviewed.
  CHECK(std::string(commentWith(h, "SQL built from input").at("body").as_string()).find("Resolved") ==
        std::string::npos);
  // The partial review is posted, but its head is not a reviewed head.
  REQUIRE(h.gh.reviews(7).size() == 2);
  CHECK(lastHead(h) == std::string(kHeadSha));
  std::string summary = readFile(h.publisherConfig.stepSummaryPath);
  CHECK(summary.find("## loopwright: failure") != std::string::npos);
  CHECK(summary.find("- `review` did not review the whole change: " + why) != std::string::npos);
  CHECK(summary.find("| `src/app.c` | skipped | " + why + " |") != std::string::npos);
}
