#include <doctest/doctest.h>

#include "github/rest/rate_limit.h"

using namespace lw::github;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

const auto kNow = std::chrono::system_clock::time_point(seconds(1'700'000'000));

HttpResponse resp(int status, std::map<std::string, std::string> headers = {}, std::string body = "{}") {
  return HttpResponse{status, std::move(headers), std::move(body)};
}

}  // namespace

TEST_CASE("rate limit: classification of GitHub's answers") {
  CHECK(classify(nullptr) == Failure::NoResponse);
  auto ok = resp(200);
  CHECK(classify(&ok) == Failure::None);
  auto primary = resp(403, {{"x-ratelimit-remaining", "0"}});
  CHECK(classify(&primary) == Failure::PrimaryRateLimit);
  auto primary429 = resp(429, {{"x-ratelimit-remaining", "0"}});
  CHECK(classify(&primary429) == Failure::PrimaryRateLimit);
  auto secondaryHeader = resp(403, {{"retry-after", "30"}});
  CHECK(classify(&secondaryHeader) == Failure::SecondaryRateLimit);
  auto secondaryBody = resp(403, {}, R"({"message":"You have exceeded a Secondary Rate Limit"})");
  CHECK(classify(&secondaryBody) == Failure::SecondaryRateLimit);
  auto tooMany = resp(429);
  CHECK(classify(&tooMany) == Failure::SecondaryRateLimit);
  auto denied =
      resp(403, {{"x-ratelimit-remaining", "4999"}}, R"({"message":"Resource not accessible by integration"})");
  CHECK(classify(&denied) == Failure::Permission);
  auto missing = resp(404);
  CHECK(classify(&missing) == Failure::Permission);
  auto large = resp(406);
  CHECK(classify(&large) == Failure::TooLarge);
  auto bad = resp(422);
  CHECK(classify(&bad) == Failure::Unprocessable);
  auto gateway = resp(502);
  CHECK(classify(&gateway) == Failure::ServerError);
}

TEST_CASE("rate limit: waits follow the headers, bounded") {
  RetryPolicy p;
  SUBCASE("primary: until x-ratelimit-reset, plus a second") {
    auto r = resp(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000090"}});
    auto d = decideRetry(&r, 1, kNow, p);
    CHECK(d.retry);
    CHECK(d.wait == milliseconds(91000));
  }
  SUBCASE("primary: a reset further than the bound gives up") {
    auto r = resp(403, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700003600"}});
    auto d = decideRetry(&r, 1, kNow, p);
    CHECK_FALSE(d.retry);
    CHECK(d.reason ==
          "primary rate limit: waiting until x-ratelimit-reset; the wait (3601 s) is longer than the bound");
  }
  SUBCASE("secondary: retry-after") {
    auto r = resp(403, {{"retry-after", "42"}});
    CHECK(decideRetry(&r, 1, kNow, p).wait == milliseconds(42000));
  }
  SUBCASE("secondary without retry-after: one minute, then exponential") {
    auto r = resp(429);
    CHECK(decideRetry(&r, 1, kNow, p).wait == milliseconds(60000));
    CHECK(decideRetry(&r, 2, kNow, p).wait == milliseconds(120000));
    CHECK(decideRetry(&r, 3, kNow, p).wait == milliseconds(240000));
  }
  SUBCASE("5xx and no response: exponential from one second, bounded tries") {
    auto r = resp(502);
    CHECK(decideRetry(&r, 1, kNow, p).wait == milliseconds(1000));
    CHECK(decideRetry(&r, 3, kNow, p).wait == milliseconds(4000));
    CHECK(decideRetry(nullptr, 2, kNow, p).wait == milliseconds(2000));
    auto last = decideRetry(&r, 5, kNow, p);
    CHECK_FALSE(last.retry);
    CHECK(last.reason == "HTTP 502; giving up after 5 tries");
  }
  SUBCASE("other 4xx: never") {
    for (int s : {400, 401, 404, 406, 409, 422}) {
      auto r = resp(s);
      CHECK_FALSE(decideRetry(&r, 1, kNow, p).retry);
    }
    auto denied = resp(403);
    CHECK_FALSE(decideRetry(&denied, 1, kNow, p).retry);
  }
}

TEST_CASE("rate limit: a success that spent the budget delays the next request") {
  auto spent = resp(200, {{"x-ratelimit-remaining", "0"}, {"x-ratelimit-reset", "1700000010"}});
  CHECK(primaryWait(spent, kNow) == milliseconds(11000));
  auto fine = resp(200, {{"x-ratelimit-remaining", "10"}, {"x-ratelimit-reset", "1700000010"}});
  CHECK(primaryWait(fine, kNow) == milliseconds(0));
}
