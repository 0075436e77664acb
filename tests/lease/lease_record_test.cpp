#include <doctest/doctest.h>

#include <string>

#include "lease/lease_record.h"

using namespace lw;
using namespace lw::lease;

TEST_CASE("lease record: every phase reads back as written") {
  for (Phase phase : {Phase::Free, Phase::Active, Phase::TearingDown}) {
    const Lease lease{"worktree.1.b.s", phase, "run 1 \"quoted\"", 18'446'744'073'709'551'615u, 1'700'000'030'000,
                      1'700'000'000'000};
    auto back = decodeRecord(encodeRecord(lease), lease.resource, "/s/worktree.1.b.s.json");
    REQUIRE(back.ok());
    CHECK(back->phase == phase);
    CHECK(back->holder == lease.holder);
    CHECK(back->token == lease.token);
    CHECK(back->expiresAtMs == lease.expiresAtMs);
    CHECK(back->claimedAtMs == lease.claimedAtMs);
  }
}

TEST_CASE("lease record: a corrupt record names the file, what is wrong and what to do") {
  auto bad = decodeRecord(
      R"({"schema":1,"resource":"other","phase":"free","holder":"","token":1,"expiresAtMs":0,"claimedAtMs":0})", "wt",
      "/s/wt.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code == ErrorCode::LeaseUnavailable);
  CHECK(bad.error().subject == "/s/wt.json");
  CHECK(bad.error().message ==
        "the lease record /s/wt.json is corrupt (it names the resource \"other\", not \"wt\"); "
        "every operation on it is refused");
  CHECK(bad.error().hint ==
        "inspect the file (`loopwright lease list` shows it as corrupt); once you know no holder "
        "is alive and the resource is gone, remove it by hand");
}

TEST_CASE("lease record: times beyond any clock and fractional numbers are corrupt") {
  for (
      const char* text :
      {R"({"schema":1,"resource":"wt","phase":"active","holder":"h","token":1,"expiresAtMs":9223372036854775807,"claimedAtMs":0})",
       R"({"schema":1,"resource":"wt","phase":"active","holder":"h","token":1.5,"expiresAtMs":1,"claimedAtMs":0})",
       R"({"schema":"1","resource":"wt","phase":"active","holder":"h","token":1,"expiresAtMs":1,"claimedAtMs":0})",
       R"([1,2,3])"}) {
    CAPTURE(text);
    auto r = decodeRecord(text, "wt", "/s/wt.json");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::LeaseUnavailable);
  }
}
