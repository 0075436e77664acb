// An author's accepted change published through the review channel, against
// the fake GitHub, which refuses comments off the diff and start_line >= line
// with 422 as GitHub does.
#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/fingerprint.h"
#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;
namespace json = boost::json;

namespace {

// Against the head of harness.h's pull request: src/app.c lines 3 and 50-52
// are on the diff, line 30 is not; a binary file cannot be a suggestion.
const std::string kPatch =
    "diff --git a/src/app.c b/src/app.c\n"
    "index 2222222..3333333 100644\n"
    "--- a/src/app.c\n"
    "+++ b/src/app.c\n"
    "@@ -2,3 +2,3 @@\n a2\n-a3\n+int a3 = 3;\n a4\n"
    "@@ -29,3 +29,3 @@\n c29\n-c30\n+c30 fixed\n c31\n"
    "@@ -49,5 +49,3 @@ int main(void)\n c49\n-a50\n-a51\n-a52\n+a50_51_52();\n c53\n"
    "diff --git a/logo.png b/logo.png\n"
    "index 4444444..5555555 100644\n"
    "GIT binary patch\nliteral 5\nMcmZ?wbYf=\n\nliteral 0\nHcmV?d00001\n\n";

PublicationRequest requestWithChange(PatchPublication mode, std::string id = "run-1") {
  PublicationRequest r = prRequest({StageResult{"fix", {}}}, std::move(id));
  r.conclusion = lw::github::Conclusion::Success;
  r.options.patches = mode;
  r.changes.push_back({"fix", "fmt", kHeadSha, kPatch, "fix/fmt/change.patch", 1700000000});
  return r;
}

std::map<int, json::object> commentsByLine(const json::array& comments) {
  std::map<int, json::object> out;
  for (const auto& c : comments) out[static_cast<int>(c.at("line").as_int64())] = c.as_object();
  return out;
}

}  // namespace

TEST_CASE("patch suggestions: a review whose comments carry suggestion blocks on the right lines") {
  Harness h;
  auto outcome = h.publisher().publish(requestWithChange(PatchPublication::Suggestions));
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  CHECK(outcome->complete);

  json::array reviews = h.gh.reviews(7);
  REQUIRE(reviews.size() == 1);
  auto byLine = commentsByLine(h.gh.reviewComments(7));
  REQUIRE_MESSAGE(byLine.size() == 2, json::serialize(reviews), h.log.str());
  const json::object& single = byLine.at(3);
  CHECK(single.at("path") == "src/app.c");
  CHECK(single.at("side") == "RIGHT");
  CHECK_FALSE(single.contains("start_line"));
  CHECK(std::string(single.at("body").as_string()).find("```suggestion\nint a3 = 3;\n```\n") != std::string::npos);
  const json::object& range = byLine.at(52);
  CHECK(range.at("start_line") == 50);
  CHECK(range.at("start_side") == "RIGHT");
  CHECK(std::string(range.at("body").as_string()).find("```suggestion\na50_51_52();\n```\n") != std::string::npos);

  // Line 30 is off the diff and logo.png is binary: both are in the body's patch.
  std::string body(reviews[0].at("body").as_string());
  CHECK(body.find("```diff\n") != std::string::npos);
  CHECK(body.find("+c30 fixed\n") != std::string::npos);
  CHECK(body.find("GIT binary patch") != std::string::npos);
  CHECK(body.find("`logo.png` is a binary file") != std::string::npos);
  CHECK(body.find("`fix/fmt/change.patch` (in the run's out dir, kept as its artifact)") != std::string::npos);
  CHECK(body.find("int a3 = 3;") == std::string::npos);  // inline, so not in the body
  CHECK(body.find("\nA proposed change in 3 parts: 2 suggestions inline, 1 below.\n") != std::string::npos);

  SUBCASE("a second run with the same change posts nothing again") {
    auto again = h.publisher().publish(requestWithChange(PatchPublication::Suggestions, "run-2"));
    REQUIRE(again.ok());
    CHECK(h.gh.reviews(7).size() == 1);
    CHECK(h.gh.reviewComments(7).size() == 2);
  }
}

TEST_CASE("patch suggestions: over maxInlineComments the rest goes to the body as a patch") {
  Harness h;
  PublicationRequest r = requestWithChange(PatchPublication::Suggestions);
  r.options.maxInlineComments = 1;
  auto outcome = h.publisher().publish(r);
  REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message), "\n", h.log.str());
  REQUIRE(h.gh.reviewComments(7).size() == 1);
  std::string body(h.gh.reviews(7)[0].at("body").as_string());
  CHECK(body.find("+a50_51_52();\n") != std::string::npos);
}

TEST_CASE("patch suggestions: with patches none or branch, the review carries nothing of the patch") {
  for (PatchPublication mode : {PatchPublication::None, PatchPublication::Branch}) {
    Harness h;
    auto outcome = h.publisher().publish(requestWithChange(mode));
    // Branch mode needs a pusher, which this publisher lacks: it stays pending.
    CHECK(outcome.ok() == (mode == PatchPublication::None));
    CHECK(h.gh.reviewComments(7).empty());
    CHECK(h.gh.reviews(7).empty());  // no finding, no suggestion: no review at all
  }
}
