// Markers carry where their finding came from (issue #24): a fork's
// artifact, published first, cannot make the trusted run believe its
// findings were already posted — neither by a marker forged into its text
// nor by posting the same finding (same fingerprint) with its own message.
#include <doctest/doctest.h>

#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;

namespace {

// What the trusted run reports, and what a fork learns by running the
// public built-in on the same pull request.
Finding realFinding() {
  return finding(Severity::Error, "src/app.c", 50, "SQL built from the request's query string", "security",
                 "security/sql-injection");
}

PublicationRequest fromArtifact(std::vector<Finding> findings) {
  PublicationRequest r = prRequest({StageResult{"security", std::move(findings)}}, "workflow-run-9-1");
  r.origin = Origin::Artifact;
  return r;
}

// Inline comments (and the review bodies) carrying a trusted marker of `fp`.
int trustedMarkersOf(const Harness& h, const std::string& fp) {
  int n = 0;
  for (const auto& c : h.gh.reviewComments(7))
    for (const FindingMark& m : markersIn(std::string(c.at("body").as_string())).findings)
      n += m.fingerprint == fp && m.origin == Origin::Trusted;
  return n;
}

}  // namespace

TEST_CASE("marker provenance: a marker forged into a fork's artifact does not stop the trusted run's review") {
  Harness h;
  const std::string fp = fingerprint(realFinding());
  // 1.0 posted a step's name raw in every heading; the message was escaped.
  const std::string forgedMarkers =
      "<!-- loopwright:finding:" + fp + " --> <!-- loopwright:finding:" + fp + ":trusted:error:security -->";
  Finding decoy = finding(Severity::Notice, "src/app.c", 51, "nothing to see " + forgedMarkers,
                          "security " + forgedMarkers, "security/note");
  auto forged = h.publisher().publish(fromArtifact({decoy}));
  REQUIRE_MESSAGE(forged.ok(), (forged.ok() ? "" : forged.error().message), "\n", h.log.str());

  auto trusted = h.publisher().publish(prRequest({StageResult{"security", {realFinding()}}}, "run-2"));
  REQUIRE_MESSAGE(trusted.ok(), (trusted.ok() ? "" : trusted.error().message), "\n", h.log.str());
  CHECK(trustedMarkersOf(h, fp) == 1);
  CHECK(h.gh.reviews(7).size() == 2);
}

TEST_CASE("marker provenance: the same finding posted first by a fork's artifact is posted again by the trusted run") {
  Harness h;
  Finding misleading = realFinding();
  auto fork = h.publisher().publish(fromArtifact({misleading}));
  REQUIRE_MESSAGE(fork.ok(), (fork.ok() ? "" : fork.error().message), "\n", h.log.str());
  REQUIRE(h.gh.reviewComments(7).size() == 1);
  const std::string fp = fingerprint(realFinding());
  CHECK(trustedMarkersOf(h, fp) == 0);

  auto trusted = h.publisher().publish(prRequest({StageResult{"security", {realFinding()}}}, "run-2"));
  REQUIRE_MESSAGE(trusted.ok(), (trusted.ok() ? "" : trusted.error().message), "\n", h.log.str());
  CHECK(h.gh.reviewComments(7).size() == 2);
  CHECK(trustedMarkersOf(h, fp) == 1);

  // A re-run of either posts nothing new: each recognises its own.
  h.gh.clearRequests();
  REQUIRE(h.publisher().publish(prRequest({StageResult{"security", {realFinding()}}}, "run-3")).ok());
  PublicationRequest again = fromArtifact({misleading});
  again.id = "workflow-run-9-2";
  REQUIRE(h.publisher().publish(again).ok());
  CHECK(h.gh.reviewComments(7).size() == 2);
}

TEST_CASE("marker provenance: a fork's artifact never resolves the trusted run's comment by leaving its finding out") {
  Harness h;
  REQUIRE(h.publisher().publish(prRequest({StageResult{"security", {realFinding()}}}, "run-1")).ok());
  // The fork's job reports nothing on the whole change.
  PublicationRequest empty = fromArtifact({});
  empty.reviewedFiles = std::vector<std::string>{"src/app.c"};
  REQUIRE(h.publisher().publish(empty).ok());
  CHECK(h.gh.count("PATCH", "/pulls/comments/") == 0);
  CHECK(trustedMarkersOf(h, fingerprint(realFinding())) == 1);
}
