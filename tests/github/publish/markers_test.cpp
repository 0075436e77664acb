#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/markdown/neutralise.h"
#include "github/publish/last_reviewed.h"
#include "github/publish/markers.h"

using namespace lw;
using namespace lw::github;
namespace json = boost::json;

namespace {

const std::string kHead1 = "1111111111111111111111111111111111111111";
const std::string kHead2 = "2222222222222222222222222222222222222222";
const std::string kFp = "0123456789abcdef";

json::object review(const std::string& login, const std::string& body, const std::string& state = "COMMENTED") {
  return json::object{{"id", 1}, {"user", json::object{{"login", login}}}, {"body", body}, {"state", state}};
}

}  // namespace

TEST_CASE("markers: each carries its origin, and is read back with it") {
  CHECK(findingMarker(kFp, Origin::Trusted, Severity::Error, "security") ==
        "<!-- loopwright:finding:" + kFp + ":trusted:error:security -->");
  CHECK(reviewMarker(kHead1, "123-1", Origin::Artifact) == "<!-- loopwright:review:" + kHead1 + ":123-1:artifact -->");
  const BodyMarkers m = markersIn("x " + findingMarker(kFp, Origin::Artifact, Severity::Warning, "security") + "\n\n" +
                                  reviewMarker(kHead1, "run-1", Origin::Trusted) + "\n### title\n");
  REQUIRE(m.findings.size() == 1);
  CHECK(m.findings[0].fingerprint == kFp);
  CHECK(m.findings[0].origin == Origin::Artifact);
  CHECK(m.findings[0].severity == Severity::Warning);
  REQUIRE(m.review);
  CHECK(m.review->headSha == kHead1);
  CHECK(m.review->publicationId == "run-1");
  CHECK(m.review->origin == Origin::Trusted);
  std::string sha256(64, 'a');
  CHECK(markersIn(reviewMarker(sha256, "x", Origin::Trusted)).review->headSha == sha256);
}

TEST_CASE("markers: a 1.0 marker without origin counts as a fork's") {
  const BodyMarkers m =
      markersIn("<!-- loopwright:finding:" + kFp + " -->\n\n<!-- loopwright:review:" + kHead1 + ":r -->");
  REQUIRE(m.findings.size() == 1);
  CHECK(m.findings[0].origin == Origin::Artifact);
  CHECK_FALSE(m.findings[0].severity);
  CHECK(m.review->origin == Origin::Artifact);
  CHECK(openFindingsIn("<!-- loopwright:finding:" + kFp + " -->", Origin::Trusted).empty());
  CHECK(openFindingsIn("<!-- loopwright:finding:" + kFp + " -->", Origin::Artifact) == std::vector<std::string>{kFp});
}

TEST_CASE("markers: malformed markers are not read") {
  for (const std::string& bad : std::vector<std::string>{
           "<!-- loopwright:finding:XYZ:trusted:error:security -->", "<!-- loopwright:finding:" + kFp + ":trusted -->",
           "<!-- loopwright:finding:" + kFp + ":trusted:fatal -->",
           "<!-- loopwright:finding:" + kFp + ":root:error -->", "<!-- loopwright:review:" + kHead1 + " -->",
           "<!-- loopwright:review:abc123:id:trusted -->", "<!-- loopwright:review:" + std::string(40, 'G') + ":id -->",
           "<!-- loopwright:review:" + kHead1 + ":i d:trusted -->"}) {
    CAPTURE(bad);
    const BodyMarkers m = markersIn(bad);
    CHECK(m.findings.empty());
    CHECK_FALSE(m.review);
  }
}

TEST_CASE("markers: only HTML of the body's parse counts, a marker in text or code is no marker") {
  const std::string marker = findingMarker(kFp, Origin::Trusted, Severity::Error, "security");
  CHECK(markersIn("`" + marker + "`").findings.empty());
  CHECK(markersIn("```\n" + marker + "\n```").findings.empty());
  CHECK(markersIn("    " + marker).findings.empty());  // indented code
  CHECK(markersIn("\\" + marker).findings.empty());    // escaped: text
  CHECK(markersIn("a " + marker + " b").findings.size() == 1);
}

TEST_CASE("markers: a forged marker in a step's text is text once neutralised, whatever its disguise") {
  const LinkScope scope{"github.com", "octo", "hello"};
  const verify::SecretScanner none;
  const std::string marker = findingMarker(kFp, Origin::Trusted, Severity::Error, "security");
  for (const std::string& text : std::vector<std::string>{
           marker, "x " + marker, "<div>\n" + marker + "\n</div>", "&lt;" + marker.substr(1),
           "<!--\u202e " + marker.substr(5), "[a](https://github.com/octo/hello \"" + marker + "\")",
           "<" + marker.substr(1, 3) + "\xE2\x80\x8B" + marker.substr(4)}) {
    CAPTURE(text);
    const std::string out = neutraliseMarkdown(text, scope, kMaxMessageBytes, none);
    const BodyMarkers m =
        markersIn(out + "\n\n" + findingMarker("fedcba9876543210", Origin::Trusted, Severity::Error, "security"));
    REQUIRE(m.findings.size() == 1);
    CHECK(m.findings[0].fingerprint == "fedcba9876543210");
  }
}

TEST_CASE("markers: a resolved marker closes the comment's findings") {
  const std::string body =
      findingMarker(kFp, Origin::Trusted, Severity::Error, "security") + "\n" + resolvedMarker(kFp, Origin::Trusted);
  CHECK(markersIn(body).resolved.size() == 1);
  CHECK(openFindingsIn(body, Origin::Artifact).empty());
  CHECK(isPublisherMarkup("</details>\n" + resolvedMarker(kFp, Origin::Trusted)));
  CHECK_FALSE(isPublisherMarkup("<img src=x>"));
  CHECK_FALSE(isPublisherMarkup(resolvedMarker(kFp, Origin::Trusted) + "\n<b>"));
}

TEST_CASE(
    "last reviewed head: our latest submitted, whole review of a trusted run, while others', pending, partial and a "
    "fork's artifact's skipped") {
  json::array reviews{review("bot", reviewMarker(kHead1, "run-1", Origin::Trusted)),
                      review("bot", "a plain review by us"),
                      review("mallory", reviewMarker(kHead2, "fake", Origin::Trusted)),
                      review("bot", reviewMarker(kHead2, "run-2", Origin::Trusted), "PENDING"),
                      review("bot", partialReviewMarker() + "\n" + reviewMarker(kHead2, "run-3", Origin::Trusted)),
                      review("bot", reviewMarker(kHead2, "workflow-run-9-1", Origin::Artifact)),
                      review("bot", "<!-- loopwright:review:" + kHead2 + ":old-1 -->")};
  auto head = lastReviewedHead(reviews, "bot");
  REQUIRE(head);
  CHECK(*head == kHead1);
  reviews.push_back(review("bot", reviewMarker(kHead2, "run-4", Origin::Trusted)));
  CHECK(lastReviewedHead(reviews, "bot") == kHead2);
  CHECK_FALSE(lastReviewedHead(reviews, "someone-else"));
  CHECK_FALSE(lastReviewedHead(json::array{}, "bot"));
}
