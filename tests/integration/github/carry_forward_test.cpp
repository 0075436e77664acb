// Issue #32 end to end against the local GitHub server: a push that fixes
// nothing must not turn the check green. Each run is what `loopwright run`
// publishes: the request its steps made, then the findings earlier reviews
// left open (pipeline/open_findings.h), then the publisher.
#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/carry_forward.h"
#include "github/publish/channels/resolve_plan.h"
#include "github/publish/conclusion.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

Finding sqlError() { return finding(Severity::Error, "src/app.c", 2, "SQL built from input", "review", "review/sql"); }

StepRow step(const std::string& name, std::optional<Coverage> coverage) {
  StepRow r;
  r.stage = "review";
  r.step = name;
  r.backend = "linux-bwrap";
  r.outcome = StepOutcome::Passed;
  r.coverage = std::move(coverage);
  return r;
}

Coverage reviewed(std::vector<std::string> files, std::string from = {}) {
  Coverage c;
  for (auto& f : files) c.files.push_back({f, FileReview::Reviewed, ""});
  c.complete = true;
  c.incrementalFrom = std::move(from);
  return c;
}

// One run as `loopwright run --publish github` makes it; returns the
// verdict its exit status comes from.
Verdict runAndPublish(Harness& h, const std::string& id, const std::string& head, std::vector<Finding> findings,
                      StepRow row, bool incremental) {
  PublicationRequest r = prRequest({StageResult{"review", std::move(findings)}}, id);
  r.headSha = head;
  r.steps = {std::move(row)};
  if (auto scope = resolveScope(r.steps, incremental))
    r.reviewedFiles = std::vector<std::string>(scope->begin(), scope->end());
  concludeRun(r);
  github::carryOpenFindings(*h.client, r, incremental, h.log);
  const Verdict verdict = judgeRun(r);
  auto published = h.publisher().publish(r);
  REQUIRE_MESSAGE(published.ok(), (published.ok() ? "" : published.error().message), "\n", h.log.str());
  return verdict;
}

json::object lastCheckRun(Harness& h) {
  json::array runs = h.gh.checkRuns();
  REQUIRE_FALSE(runs.empty());
  return runs.back().as_object();
}

std::int64_t commentIdOf(Harness& h, const std::string& text) {
  for (const auto& c : h.gh.reviewComments(7))
    if (std::string(c.at("body").as_string()).find(text) != std::string::npos) return c.at("id").as_int64();
  FAIL("no comment with '" << text << "'");
  return 0;
}

// Push 1: an error on src/app.c:2; push 2 touches only docs/guide.md.
void pushOneThenTwo(Harness& h) {
  Verdict first = runAndPublish(h, "run-1", kHeadSha, {sqlError()},
                                step("review", reviewed({"src/app.c", "docs/guide.md"})), false);
  CHECK(first.conclusion == Conclusion::Failure);
  CHECK(lastCheckRun(h).at("conclusion") == "failure");
  h.gh.addPull(7, kHead2, kDiff);
}

}  // namespace

TEST_CASE("carry forward end to end: a push that fixes nothing stays red, naming the carried error") {
  Harness h;
  pushOneThenTwo(h);
  Verdict second = runAndPublish(h, "run-2", kHead2, {}, step("review", reviewed({"docs/guide.md"}, kHeadSha)), true);
  CHECK(second.conclusion == Conclusion::Failure);
  const json::object run = lastCheckRun(h);
  CHECK(std::string(run.at("head_sha").as_string()) == kHead2);
  CHECK(run.at("conclusion") == "failure");
  const std::string summary(run.at("output").at("summary").as_string());
  CHECK(summary.find("1 error carried from an earlier review, at `src/app.c:2`") != std::string::npos);
  CHECK(std::string(run.at("output").at("title").as_string()).rfind("1 error(s), 0 warning(s)", 0) == 0);
  // Annotated on the new head too, so the Files view still shows it.
  CHECK(json::serialize(h.gh.annotations(run.at("id").as_int64())).find("src/app.c") != std::string::npos);
  CHECK(h.gh.reviewComments(7).size() == 1);  // nothing posted again

  SUBCASE("push 3 changes the flagged line and the review finds nothing: green") {
    h.gh.addPull(7, kHead3, kDiff);
    h.gh.markOutdated(7, commentIdOf(h, "SQL built from input"));
    Verdict third = runAndPublish(h, "run-3", kHead3, {}, step("review", reviewed({"src/app.c"}, kHead2)), true);
    CHECK(third.conclusion == Conclusion::Success);
    CHECK(lastCheckRun(h).at("conclusion") == "success");
    CHECK(std::string(lastCheckRun(h).at("output").at("summary").as_string()).find("its lines changed since") !=
          std::string::npos);
  }
  SUBCASE("a person resolved the thread on push 2: green on push 3 with the line untouched") {
    h.gh.resolveThread(commentIdOf(h, "SQL built from input"));
    h.gh.addPull(7, kHead3, kDiff);
    Verdict third = runAndPublish(h, "run-3", kHead3, {}, step("review", reviewed({"docs/guide.md"}, kHead2)), true);
    CHECK(third.conclusion == Conclusion::Success);
    CHECK(std::string(lastCheckRun(h).at("output").at("summary").as_string()).find("a person resolved its thread") !=
          std::string::npos);
  }
  SUBCASE("the same head again (a re-delivered synchronize): the same conclusion, nothing posted twice") {
    h.gh.clearRequests();
    Verdict again = runAndPublish(h, "run-2-again", kHead2, {}, step("review", reviewed({}, kHead2)), true);
    CHECK(again.conclusion == Conclusion::Failure);
    CHECK(h.gh.count("POST", "/reviews") == 0);
    CHECK(h.gh.count("POST", "/check-runs") == 0);  // the check run of this result is already there
    CHECK(lastCheckRun(h).at("conclusion") == "failure");
  }
}

TEST_CASE(
    "carry forward end to end: a deterministic step re-run on the whole diff counts its findings once, and drops what "
    "it no longer finds") {
  Harness h;
  Finding secret = finding(Severity::Error, "src/app.c", 50, "a token in the source", "security", "security/secret");
  Verdict first = runAndPublish(h, "run-1", kHeadSha, {secret}, step("security", std::nullopt), false);
  CHECK(first.conclusion == Conclusion::Failure);
  h.gh.addPull(7, kHead2, kDiff);
  // Push 2: security runs on the whole diff again and finds it again.
  Verdict second = runAndPublish(h, "run-2", kHead2, {secret}, step("security", std::nullopt), false);
  CHECK(second.reasons == std::vector<std::string>{"1 finding(s) at the fail level (error)"});
  CHECK(std::string(lastCheckRun(h).at("output").at("summary").as_string()).find("carried") == std::string::npos);
  // Push 3: the token is gone and the full scan no longer reports it.
  h.gh.addPull(7, kHead3, kDiff);
  Verdict third = runAndPublish(h, "run-3", kHead3, {}, step("security", std::nullopt), false);
  CHECK(third.conclusion == Conclusion::Success);
  // A lint step limited to the push (incremental, no coverage) keeps it.
  Harness lint;
  runAndPublish(lint, "run-1", kHeadSha, {finding(Severity::Error, "src/app.c", 2, "unused", "lint", "lint/x")},
                step("lint", std::nullopt), false);
  lint.gh.addPull(7, kHead2, kDiff);
  CHECK(runAndPublish(lint, "run-2", kHead2, {}, step("lint", std::nullopt), true).conclusion == Conclusion::Failure);
}
