// A publication GitHub rejects every time (here: a pull request whose head
// the API no longer knows, answered 422) must not block every later run: it
// is retried by the next runs, then parked after kMaxPublishAttempts with
// its reason, and no run tries it again.
#include <filesystem>

#include <doctest/doctest.h>

#include "harness.h"

using namespace lw;
using namespace lw::github;
using namespace lw::test;

TEST_CASE("outbox: a publication that fails every time is parked after three attempts and blocks nothing after") {
  Harness h;
  h.gh.script({"POST",
               "/pulls/7/reviews",
               0,
               100,
               422,
               {},
               R"({"message":"Unprocessable Entity: commit_id is not part of the pull request"})"});
  auto request = prRequest({{"security", {finding(Severity::Error, "src/app.c", 2, "bad")}}});

  auto first = h.publisher().publish(request);
  REQUIRE_FALSE(first.ok());
  CHECK(first.error().message.find("did not finish") != std::string::npos);
  auto pending = h.outbox.pending();
  REQUIRE(pending.ok());
  REQUIRE(pending->size() == 1);
  CHECK(pending->front().lastError.find("review:") == 0);

  auto second = h.publisher().resumeAll(std::nullopt);  // the next run, attempt 2
  CHECK_FALSE(second.ok());
  auto third = h.publisher().resumeAll(std::nullopt);  // attempt 3: parked
  REQUIRE_FALSE(third.ok());
  CHECK(third.error().message.find("failed 3 times and was parked") != std::string::npos);
  CHECK(h.outbox.pending()->empty());
  CHECK(std::filesystem::exists(h.state / "outbox/parked" / std::filesystem::path(pending->front().file).filename()));
  std::string summary = readFile(h.state / "summary.md");
  CHECK(summary.find("failed 3 times and is parked in") != std::string::npos);

  // A later run publishes its own results and does not touch the parked one.
  h.gh.clearRequests();
  auto later = h.publisher().resumeAll(std::nullopt);
  REQUIRE(later.ok());
  CHECK(later->empty());
  CHECK(h.gh.requests().empty());
}
