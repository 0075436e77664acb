// Hostile step output through the real publisher against the fake GitHub
// server, for each attack that got through on 1.0 (issue #24): every body
// that reached the server is judged by GitHub's own parser (cmark-gfm).
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/markdown/inert_check.h"
#include "github/markdown/neutralise.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"
#include "harness.h"
#include "posted_bodies.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

const LinkScope kScope{"github.com", FakeGithub::kOwner, FakeGithub::kRepo};

// The link attack of 1.0: a destination followed by text is no link, and
// everything inside the parentheses was posted verbatim.
const std::string kLinkAttack =
    "[x](foo bar @octocat [y](https://evil.example) ![i](https://evil.example/p.png) www.evil.example o/other#1)";
// HTML, mentions and a forged marker in fields 1.0 never neutralised.
const std::string kFieldAttack =
    "<img src=https://evil.example/p.png> <a href=https://evil.example>x</a> @user @org/team "
    "<!-- loopwright:finding:0123456789abcdef -->";

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The fake server's API URL is on 127.0.0.1: links into the repository are
// judged against the web host the publisher derives from it.
LinkScope scopeOf(const Harness& h) { return {webHostOfApiUrl(h.gh.url()), FakeGithub::kOwner, FakeGithub::kRepo}; }

// Every body is inert, and every finding marker in it is the publisher's,
// for one of `own`'s findings.
void checkPosted(const Harness& h, const std::set<std::string>& ownFingerprints) {
  const std::vector<std::string> bodies = renderedBodies(h.gh);
  REQUIRE_FALSE(bodies.empty());
  for (const std::string& body : bodies) {
    CAPTURE(body);
    std::string why;
    for (const std::string& v : inertViolations(body, scopeOf(h), isPublisherMarkup)) why += v + "\n";
    CAPTURE(why);
    CHECK(why.empty());
    for (const FindingMark& m : markersIn(body).findings) CHECK(ownFingerprints.count(m.fingerprint) == 1);
  }
}

std::set<std::string> fingerprintsPosted(const Harness& h) {
  std::set<std::string> out;
  for (const std::string& body : renderedBodies(h.gh))
    for (const FindingMark& m : markersIn(body).findings) out.insert(m.fingerprint);
  return out;
}

}  // namespace

TEST_CASE("inert outputs end to end: the link attack is posted with no live link, image or mention") {
  Harness h;
  Finding inlined = finding(Severity::Warning, "src/app.c", 50, kLinkAttack, "review", "review/link");
  Finding below = finding(Severity::Error, "src/app.c", 30, kLinkAttack, "review", "review/link");
  auto outcome = h.publisher().publish(prRequest({StageResult{"review", {inlined, below}}}));
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  CHECK(h.gh.reviewComments(7).size() == 1);
  checkPosted(h, fingerprintsPosted(h));
  CHECK(fingerprintsPosted(h).size() == 2);
}

TEST_CASE("inert outputs end to end: step, stage, rule and path carry no HTML, mention or forged marker") {
  Harness h;
  Finding f = finding(Severity::Error, "src/app.c", 50, "plain", kFieldAttack, kFieldAttack);
  Finding table = finding(Severity::Warning, "x|@octocat|www.evil.example|.py", 3, "in a file named to break the table",
                          "review", "r|@octocat|x");
  PublicationRequest r = prRequest({StageResult{kFieldAttack, {f, table}}});
  StepRow row;
  row.stage = kFieldAttack;
  row.step = kFieldAttack;
  row.backend = kFieldAttack;
  row.capabilities = {kFieldAttack};
  row.blocked = true;
  row.blocker = kFieldAttack;
  row.outcome = StepOutcome::Blocked;
  r.steps.push_back(row);
  auto outcome = h.publisher().publish(r);
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  checkPosted(h, fingerprintsPosted(h));
  // The check run's findings table keeps its five cells on every row.
  json::array runs = h.gh.checkRuns();
  REQUIRE_FALSE(runs.empty());
  const std::string summary(runs[0].at("output").at("summary").as_string());
  CAPTURE(summary);
  CHECK(has(summary, "x\\|@octocat\\|www.evil.example\\|.py"));
}

TEST_CASE("inert outputs end to end: a token split by a hidden character is masked after the character is removed") {
  Harness h;
  const std::string laneKey = "sk-lane-0123456789abcdefXYZ";
  h.publisherConfig.secrets = {laneKey};
  const std::string token = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
  const std::string message = "leaked " + token.substr(0, 9) + "\u202E" + token.substr(9) + " and " +
                              laneKey.substr(0, 7) + "\u2066" + laneKey.substr(7) +
                              " and tag\U000E0041\U000E0042 hidden\u200Btext";
  auto outcome = h.publisher().publish(
      prRequest({StageResult{"review", {finding(Severity::Warning, "src/app.c", 50, message, "review", "review/x")}}}));
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  for (const FakeGithub::Request& req : h.gh.requests()) {
    CAPTURE(req.body);
    CHECK_FALSE(has(req.body, token.substr(4)));
    CHECK_FALSE(has(req.body, "0123456789abcdefXYZ"));
    CHECK_FALSE(has(req.body, "\\u202e"));
    CHECK_FALSE(has(req.body, "\xF3\xA0\x81\x81"));  // U+E0041
  }
  CHECK_FALSE(has(readFile(h.publisherConfig.stepSummaryPath), "0123456789abcdefXYZ"));
}

TEST_CASE("inert outputs end to end: a hostile triage comment cannot forge the sticky marker or ping anyone") {
  Harness h;
  PublicationRequest r;
  r.id = "t-1";
  r.repo = {FakeGithub::kOwner, FakeGithub::kRepo};
  r.number = 12;
  r.conclusion = lw::github::Conclusion::Success;
  TriageResult t;
  t.step = kFieldAttack;
  t.labels = {"bug", "<img>", "x`y"};
  t.duplicates = {{.number = 3, .reason = "cc @maintainer <b>same</b> " + kLinkAttack}};
  t.comment = kLinkAttack + "\n" + triageMarker() + "\n" + std::string(70000, 'z');
  r.triage.push_back(t);
  auto outcome = h.publisher().publish(r);
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  CHECK(h.gh.issueLabels(12) == std::vector<std::string>{"bug"});
  json::array comments = h.gh.issueComments(12);
  REQUIRE(comments.size() == 1);
  const std::string body(comments[0].at("body").as_string());
  checkPosted(h, {});
  CHECK(body.find(triageMarker()) == 0);
  CHECK(body.find(triageMarker(), 1) == std::string::npos);
  CHECK(has(body, "(truncated)"));
  CHECK(body.size() < 65536);
}
