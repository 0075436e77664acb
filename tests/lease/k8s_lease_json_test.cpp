// The lease record as a Lease object, pure: names, MicroTime, and the
// expiry carried exactly by renewTime + leaseDurationSeconds.
#include <doctest/doctest.h>

#include "lease/k8s_lease_json.h"
#include "lease_fixture.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::k8s;

TEST_CASE("k8s lease json: object names are valid names, distinct for names that differ only in case or '_'") {
  CHECK(objectName("loopwright-", "worktree.12.fmt") == objectName("loopwright-", "worktree.12.fmt"));
  CHECK(objectName("loopwright-", "wt").starts_with("loopwright-wt-"));
  CHECK(objectName("loopwright-", "WT") != objectName("loopwright-", "wt"));
  CHECK(objectName("loopwright-", "a_b") != objectName("loopwright-", "a-b"));
  CHECK(objectName("loopwright-", "Run_1.x").starts_with("loopwright-run-1-x-"));
}

TEST_CASE("k8s lease json: MicroTime has six fractional digits, parsed back to the millisecond") {
  CHECK(formatMicroTime(lw::lease::test::kT0 + 250) == "2023-11-14T22:13:20.250000Z");
  CHECK(parseMicroTime("2023-11-14T22:13:20.250000Z") == lw::lease::test::kT0 + 250);
  CHECK(parseMicroTime("2023-11-14T22:13:20Z") == lw::lease::test::kT0);
  CHECK(parseMicroTime("2023-11-14T22:13:20.250001Z") == lw::lease::test::kT0 + 251);  // rounded up: the later expiry
  CHECK_FALSE(parseMicroTime("2023-11-14T22:13:20.250000+01:00").has_value());
  CHECK_FALSE(parseMicroTime("yesterday").has_value());
}

TEST_CASE("k8s lease json: every phase round-trips, the expiry exact to the millisecond") {
  for (const Lease& lease :
       {Lease{"wt", Phase::Active, "run 1", 7, lw::lease::test::kT0 + 10'250, lw::lease::test::kT0},
        Lease{"wt", Phase::TearingDown, "run 1", 7, lw::lease::test::kT0 - 5'000, lw::lease::test::kT0 - 60'000},
        Lease{"wt", Phase::Free, "", 7, 0, 0}}) {
    CAPTURE(phaseName(lease.phase));
    auto object = encodeLease(lease, "loopwright-wt-x", "ci", lw::lease::test::kT0 + 3);
    auto back = decodeLease(object, "wt", "ci/loopwright-wt-x");
    REQUIRE(back.ok());
    CHECK(back->phase == lease.phase);
    CHECK(back->holder == lease.holder);
    CHECK(back->token == lease.token);
    CHECK(back->expiresAtMs == lease.expiresAtMs);
    CHECK(back->claimedAtMs == lease.claimedAtMs);
  }
  auto active = encodeLease(Lease{"wt", Phase::Active, "run 1", 7, lw::lease::test::kT0 + 10'250, lw::lease::test::kT0},
                            "n", "ci", lw::lease::test::kT0);
  CHECK(active.at("spec").at("leaseDurationSeconds").as_int64() == 11);
  CHECK(active.at("spec").at("renewTime").as_string() == "2023-11-14T22:13:19.250000Z");
}

// Leases already in clusters carry these names: another name after an upgrade
// would be another lease, claimable while the old one is held.
TEST_CASE("k8s lease json: object names are the ones existing Leases carry") {
  CHECK(objectName("loopwright-", "wt") == "loopwright-wt-9be96500c68f7f38");
  CHECK(objectName("loopwright-", "worktree.12.fmt") == "loopwright-worktree-12-fmt-2a444116a3dbeb4e");
}
