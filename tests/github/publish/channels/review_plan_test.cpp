#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/channels/review_plan.h"
#include "github/publish/fingerprint.h"
#include "github/publish/markers.h"

using namespace lw;
using namespace lw::github;

namespace {

Finding f(Severity s, std::string path, int line, std::string msg, int endLine = 0) {
  Finding x;
  x.step = "sec";
  x.ruleId = "r";
  x.severity = s;
  x.path = std::move(path);
  x.line = line;
  x.endLine = endLine;
  x.message = std::move(msg);
  return x;
}

diff::DiffIndex sampleDiff() {
  auto d =
      diff::DiffIndex::parse("--- a/a.c\n+++ b/a.c\n@@ -1,0 +1,5 @@\n+1\n+2\n+3\n+4\n+5\n@@ -20,0 +30,2 @@\n+a\n+b\n");
  REQUIRE(d.ok());
  return std::move(d).value();
}

}  // namespace

TEST_CASE("review plan: in-diff findings inline up to the limit, errors first, the rest in the body") {
  diff::DiffIndex d = sampleDiff();
  std::vector<Finding> in = {f(Severity::Notice, "a.c", 1, "n1"),  f(Severity::Error, "a.c", 2, "e1"),
                             f(Severity::Warning, "a.c", 3, "w1"), f(Severity::Error, "a.c", 10, "outside"),
                             f(Severity::Warning, "", 0, "whole"), f(Severity::Error, "a.c", 4, "e2")};
  ReviewPlan p = planReview(in, &d, {}, {}, 2);
  REQUIRE(p.inlineComments.size() == 2);
  CHECK(p.inlineComments[0].finding.message == "e1");
  CHECK(p.inlineComments[1].finding.message == "e2");
  REQUIRE(p.outsideDiff.size() == 2);
  CHECK(p.outsideDiff[0].finding.message == "outside");
  CHECK(p.outsideDiff[1].finding.message == "whole");
  REQUIRE(p.overflow.size() == 2);
  CHECK(p.overflow[0].finding.message == "w1");
  CHECK(p.overflow[1].finding.message == "n1");
  CHECK(p.hasNew());
}

TEST_CASE("review plan: already-posted fingerprints are skipped, our comments no longer reported are resolved") {
  diff::DiffIndex d = sampleDiff();
  Finding kept = f(Severity::Error, "a.c", 2, "kept");
  Finding gone = f(Severity::Error, "a.c", 3, "gone");
  std::vector<OwnComment> own = {
      {1, "x " + findingMarker(fingerprint(kept), Origin::Trusted, kept.severity, kept.step)},
      {2, "y " + findingMarker(fingerprint(gone), Origin::Trusted, gone.severity, gone.step)},
      {3, resolvedMarker(fingerprint(gone), Origin::Trusted) + " resolved already"},
      {4, "no marker"}};
  ReviewPlan p = planReview({kept, kept}, &d, {fingerprint(kept)}, own, 50);
  CHECK_FALSE(p.hasNew());
  CHECK(p.alreadyPosted == 1);  // the duplicate in the same run counts once
  CHECK(p.resolve == std::vector<std::int64_t>{2});
}

TEST_CASE("review plan: without a diff everything goes to the body") {
  ReviewPlan p = planReview({f(Severity::Error, "a.c", 2, "e")}, nullptr, {}, {}, 50);
  CHECK(p.inlineComments.empty());
  CHECK(p.outsideDiff.size() == 1);
}

TEST_CASE("review plan: comment bodies carry suggestion blocks and the marker") {
  Finding s = f(Severity::Warning, "a.c", 2, "use x", 3);
  s.suggestion = "x = ```y```;";
  InlineComment c{s, fingerprint(s), {2, 3, false}, "a.c"};
  std::string body = inlineCommentBody(c);
  CHECK(body == "**warning** `r` (sec)\n\nuse x\n\n````suggestion\nx = ```y```;\n````\n" +
                    findingMarker(fingerprint(s), Origin::Trusted, s.severity, s.step));
  InlineComment clipped{s, fingerprint(s), {0, 2, true}, "a.c"};
  std::string cb = inlineCommentBody(clipped);
  CHECK(cb.find("suggestion") == std::string::npos);
  CHECK(cb.find("_Reported for lines 2-3; only line 2 is in this hunk of the diff._") != std::string::npos);
}

TEST_CASE("review plan: payload shape, event and body bound") {
  diff::DiffIndex d = sampleDiff();
  ReviewPlan p =
      planReview({f(Severity::Error, "a.c", 30, "e", 31), f(Severity::Notice, "a.c", 1, "n")}, &d, {}, {}, 50);
  boost::json::value v = reviewPayload(p.inlineComments, "sha1", "body", "COMMENT");
  CHECK(v.at("commit_id") == "sha1");
  CHECK(v.at("event") == "COMMENT");
  auto& cs = v.at("comments").as_array();
  REQUIRE(cs.size() == 2);
  CHECK(cs[0].at("start_line") == 30);
  CHECK(cs[0].at("line") == 31);
  CHECK(cs[0].at("side") == "RIGHT");
  CHECK(cs[0].at("start_side") == "RIGHT");
  CHECK_FALSE(cs[1].as_object().contains("start_line"));
  CHECK_FALSE(reviewPayload({}, "s", "", "").as_object().contains("event"));  // pending
  CHECK(reviewEvent(p, ReviewMode::Comment, FailOn::Error) == "COMMENT");
  CHECK(reviewEvent(p, ReviewMode::RequestChanges, FailOn::Error) == "REQUEST_CHANGES");
  ReviewPlan notices = planReview({f(Severity::Notice, "a.c", 1, "n")}, &d, {}, {}, 50);
  CHECK(reviewEvent(notices, ReviewMode::RequestChanges, FailOn::Warning) == "COMMENT");

  std::vector<Finding> many;
  for (int i = 0; i < 400; ++i)
    many.push_back(f(Severity::Error, "z.c", i + 1, std::string(300, 'm') + std::to_string(i)));
  ReviewPlan big = planReview(many, &d, {}, {}, 50);
  std::string body = reviewBody(big, "sha", "id", 50);
  CHECK(body.size() <= kMaxBodyChars);
  CHECK(body.find("more finding(s) did not fit in a review body") != std::string::npos);
  CHECK(body.rfind(reviewMarker("sha", "id", Origin::Trusted), 0) == 0);
}

TEST_CASE("review plan: a resolved comment drops its finding marker") {
  std::string old = "**error** x\n" + findingMarker("0123456789abcdef", Origin::Trusted, Severity::Error, "security");
  std::string now = resolvedCommentBody(old, "abcdef0123456789");
  CHECK(markersIn(now).findings.empty());
  CHECK(markersIn(now).resolved.size() == 1);
  CHECK(now.rfind("**Resolved**: loopwright no longer reports this at abcdef012345.", 0) == 0);
}
