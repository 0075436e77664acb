#include <boost/json.hpp>
#include <doctest/doctest.h>

#include "github/fingerprint.h"
#include "github/last_reviewed.h"

using namespace lw;
using namespace lw::github;
namespace json = boost::json;

namespace {

const std::string kHead1 = "1111111111111111111111111111111111111111";
const std::string kHead2 = "2222222222222222222222222222222222222222";

json::object review(const std::string& login, const std::string& body, const std::string& state = "COMMENTED") {
  return json::object{{"id", 1}, {"user", json::object{{"login", login}}}, {"body", body}, {"state", state}};
}

}  // namespace

TEST_CASE("review marker: printed with the head and read back") {
  std::string m = reviewMarker(kHead1, "123-1-review-77");
  CHECK(m == "<!-- loopwright:review:" + kHead1 + ":123-1-review-77 -->");
  auto parsed = parseReviewMarker("text\n" + m + "\nmore");
  REQUIRE(parsed);
  CHECK(parsed->headSha == kHead1);
  CHECK(parsed->publicationId == "123-1-review-77");
  std::string sha256(64, 'a');
  REQUIRE(parseReviewMarker(reviewMarker(sha256, "x")));
  CHECK(parseReviewMarker(reviewMarker(sha256, "x"))->headSha == sha256);
}

TEST_CASE("review marker: malformed markers are not read") {
  CHECK_FALSE(parseReviewMarker("no marker"));
  CHECK_FALSE(parseReviewMarker("<!-- loopwright:review:" + kHead1 + ":id"));        // unterminated
  CHECK_FALSE(parseReviewMarker("<!-- loopwright:review:" + kHead1 + " -->"));       // no id
  CHECK_FALSE(parseReviewMarker("<!-- loopwright:review:abc123:id -->"));            // short head
  CHECK_FALSE(parseReviewMarker("<!-- loopwright:review:" + std::string(40, 'G') + ":id -->"));
  CHECK(hasPartialReviewMarker(partialReviewMarker() + "\n" + reviewMarker(kHead1, "x")));
  CHECK_FALSE(hasPartialReviewMarker(reviewMarker(kHead1, "x")));
}

TEST_CASE("last reviewed head: our latest submitted, whole review, while others' markers, pending and partial reviews skipped") {
  json::array reviews{review("bot", reviewMarker(kHead1, "run-1")),
                      review("bot", "a plain review by us"),
                      review("mallory", reviewMarker(kHead2, "fake")),
                      review("bot", reviewMarker(kHead2, "run-2"), "PENDING"),
                      review("bot", partialReviewMarker() + "\n" + reviewMarker(kHead2, "run-3"))};
  auto head = lastReviewedHead(reviews, "bot");
  REQUIRE(head);
  CHECK(*head == kHead1);
  reviews.push_back(review("bot", reviewMarker(kHead2, "run-4")));
  CHECK(lastReviewedHead(reviews, "bot") == kHead2);
  CHECK_FALSE(lastReviewedHead(reviews, "someone-else"));
  CHECK_FALSE(lastReviewedHead(json::array{}, "bot"));
}
