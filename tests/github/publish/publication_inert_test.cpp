// The property of issue #24's boundary, on what is actually sent: hostile
// text in every field of many publications, through makeInert and the
// planners that build the request bodies (review body, inline comments,
// suggestions and patches, check run summaries, the triage comment). GitHub's
// parse of every body holds no off-repository link, image, raw HTML, live
// mention or cross-reference, and no marker the publisher did not write.
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/markdown/inert_check.h"
#include "github/markdown/neutralise.h"
#include "github/publish/channels/channels.h"
#include "github/publish/channels/check_plan.h"
#include "github/publish/channels/review_plan.h"
#include "github/publish/channels/suggestion_plan.h"
#include "github/publish/fingerprint.h"
#include "github/publish/inert_request.h"
#include "github/publish/markers.h"
#include "hostile_text.h"

using namespace lw;
using namespace lw::github;

namespace {

const LinkScope kScope{"github.com", "octo", "hello"};
const std::string kHead = "0123456789abcdef0123456789abcdef01234567";
constexpr const char* kDiff =
    "diff --git a/src/app.c b/src/app.c\n--- a/src/app.c\n+++ b/src/app.c\n@@ -1,2 +1,6 @@\n l1\n+a2\n+a3\n+a4\n+a5\n "
    "l6\n";

struct Texts {
  test::HostileText gen;
  std::size_t used = 0;
  std::string operator()() {
    ++used;
    return gen.next();
  }
};

Finding hostileFinding(Texts& t, int k) {
  Finding f{t(), t(), k % 3 == 0 ? Severity::Error : Severity::Warning, t(), k % 2 ? "src/app.c" : t(), 2 + k % 4,
            0,   {}};
  if (k % 4 == 1) f.suggestion = t();
  return f;
}

StepRow hostileStep(Texts& t) {
  StepRow s{t(), t(), t(), {t(), t()}, 10, 1, {t(), t()}, true, t(), StepOutcome::Blocked, {}, 0};
  s.coverage = Coverage{{{t(), FileReview::Skipped, t()}}, {{t(), 1, 2, t(), t()}}, false, t(), 0, kHead, ""};
  return s;
}

PublicationRequest hostileRequest(Texts& t) {
  PublicationRequest r;
  r.id = t();
  r.repo = {"octo", "hello"};
  r.number = 7;
  r.isPullRequest = true;
  r.headSha = kHead;
  for (int s = 0; s < 2; ++s) {
    StageResult stage{t(), {}};
    for (int k = 0; k < 3; ++k) stage.findings.push_back(hostileFinding(t, k + s));
    stage.carried.push_back(CarriedFinding{"0123456789abcdef", Severity::Error, t(), t(), 3, 11, ""});
    stage.carried.push_back(CarriedFinding{"fedcba9876543210", Severity::Warning, t(), t(), 4, 12, t()});
    r.stages.push_back(std::move(stage));
  }
  r.triage.push_back(TriageResult{t(), {t(), t()}, {{3, t()}}, true, false, t()});
  r.steps.push_back(hostileStep(t));
  r.conclusion = lw::github::Conclusion::Failure;
  r.changes.push_back(ProposedChange{t(), t(), kHead,
                                     "diff --git a/src/app.c b/src/app.c\n--- a/src/app.c\n+++ "
                                     "b/src/app.c\n@@ -2,1 +2,1 @@\n-a2\n+" +
                                         t() + "\n",
                                     t(), 1});
  return r;
}

// The Markdown bodies of the review, as the review channel builds them.
std::vector<std::string> reviewBodies(const PublicationRequest& r, const diff::DiffIndex& diff) {
  SuggestionPlan suggestions = planSuggestions(r.changes, &diff, r.headSha);
  std::vector<Finding> all = allFindings(r);
  for (Finding& f : findingsOf(suggestions)) all.push_back(std::move(f));
  ReviewPlan plan = planReview(all, &diff, {}, {}, 3);
  std::vector<std::string> bodies{reviewBody(plan, r.headSha, r.id, 3)};
  std::set<std::string> inBody;
  for (const auto* list : {&plan.outsideDiff, &plan.overflow})
    for (const BodyFinding& b : *list) inBody.insert(b.fingerprint);
  bodies.back() += patchAppendix(suggestions, inBody, 20000);
  for (const InlineComment& c : plan.inlineComments) bodies.push_back(inlineCommentBody(c));
  return bodies;
}

std::vector<std::string> checkBodies(const PublicationRequest& r) {
  std::vector<std::string> bodies;
  for (const StageResult& stage : r.stages) {
    CheckRunPlan plan = planCheckRun(stage, r.steps, r.headSha, FailOn::Error);
    bodies.push_back(plan.summary);
    bodies.push_back(plan.title);
  }
  return bodies;
}

// Every finding marker in `body` is one the publisher wrote, for a finding
// of the request (or a part of its proposed change).
void checkMarkers(const std::string& body, const std::set<std::string>& own) {
  for (const FindingMark& m : markersIn(body).findings) {
    CAPTURE(m.literal);
    REQUIRE(own.count(m.fingerprint) == 1);
    REQUIRE(m.origin == Origin::Trusted);
  }
}

}  // namespace

TEST_CASE("publication inert: 10,000 hostile texts in every field leave every request body inert") {
  Texts texts;
  const verify::SecretScanner none;
  const diff::DiffIndex diff = diff::DiffIndex::parse(kDiff).value();
  std::size_t bodies = 0;
  while (texts.used < 10000) {
    auto inert = makeInert(hostileRequest(texts), kScope, none);
    REQUIRE(inert);
    const PublicationRequest& r = inert->get();
    std::set<std::string> own;
    for (const Finding& f : allFindings(r)) own.insert(fingerprint(f));
    for (const Finding& f : findingsOf(planSuggestions(r.changes, &diff, r.headSha))) own.insert(fingerprint(f));
    std::vector<std::string> all = reviewBodies(r, diff);
    for (std::string& b : checkBodies(r)) all.push_back(std::move(b));
    all.push_back(triageCommentBody(r));
    for (const std::string& body : all) {
      const std::vector<std::string> violations = inertViolations(body, kScope, isPublisherMarkup);
      CAPTURE(body);
      std::string why;
      for (const std::string& v : violations) why += v + "\n";
      CAPTURE(why);
      REQUIRE(violations.empty());
      checkMarkers(body, own);
      ++bodies;
    }
  }
  MESSAGE(texts.used << " hostile texts, " << bodies << " bodies checked");
}
