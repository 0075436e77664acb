#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "lease/transitions.h"

using namespace lw;
using namespace lw::lease;

namespace {

constexpr std::int64_t kNow = 1'700'000'000'000;

Lease record(Phase phase, std::uint64_t token, std::int64_t expiresAtMs) {
  return Lease{"wt",  phase,       phase == Phase::Free ? "" : "run 1",
               token, expiresAtMs, phase == Phase::Free ? 0 : kNow - 5000};
}
Lease active(std::uint64_t token, std::int64_t expires) { return record(Phase::Active, token, expires); }
Lease tearing(std::uint64_t token, std::int64_t expires) { return record(Phase::TearingDown, token, expires); }
Lease freed(std::uint64_t token) { return record(Phase::Free, token, 0); }

Request ask(RequestKind kind, std::uint64_t token) { return Request{kind, "wt", "run 2", token, 30'000}; }

struct Case {
  const char* name;
  std::optional<Lease> current;
  Request request;
  std::optional<Lease> next;         // set: the expected record
  std::optional<ErrorCode> refusal;  // set: the expected refusal
};

bool same(const Lease& a, const Lease& b) {
  return a.resource == b.resource && a.phase == b.phase && a.holder == b.holder && a.token == b.token &&
         a.expiresAtMs == b.expiresAtMs && a.claimedAtMs == b.claimedAtMs;
}

std::vector<Case> cases() {
  const std::int64_t later = kNow + 1, earlier = kNow - 1;
  const Lease claimed{"wt", Phase::Active, "run 2", 0, kNow + 30'000, kNow};
  auto claimedWith = [&](std::uint64_t token) {
    Lease l = claimed;
    l.token = token;
    return l;
  };
  auto renewed = [&](Lease l) {
    l.expiresAtMs = kNow + 30'000;
    return l;
  };
  const auto unavailable = ErrorCode::LeaseUnavailable, lost = ErrorCode::LeaseLost;
  return {
      {"claim: no record -> active, token 1", std::nullopt, ask(RequestKind::Claim, 0), claimedWith(1), {}},
      {"claim: free keeps counting -> token 5", freed(4), ask(RequestKind::Claim, 0), claimedWith(5), {}},
      {"claim: active and unexpired is refused", active(3, later), ask(RequestKind::Claim, 0), {}, unavailable},
      {"claim: active and expired at this very ms", active(3, kNow), ask(RequestKind::Claim, 0), claimedWith(4), {}},
      {"claim: active and expired long ago", active(3, earlier), ask(RequestKind::Claim, 0), claimedWith(4), {}},
      {"claim: tearing down, unexpired", tearing(3, later), ask(RequestKind::Claim, 0), {}, unavailable},
      {"claim: tearing down, expired", tearing(3, earlier), ask(RequestKind::Claim, 0), {}, unavailable},
      {"renew: current token, unexpired -> later expiry",
       active(3, later),
       ask(RequestKind::Renew, 3),
       renewed(active(3, later)),
       {}},
      {"renew: current token, expired", active(3, kNow), ask(RequestKind::Renew, 3), {}, lost},
      {"renew: stale token", active(4, later), ask(RequestKind::Renew, 3), {}, lost},
      {"renew: newer token than the store's", active(3, later), ask(RequestKind::Renew, 4), {}, lost},
      {"renew: free", freed(3), ask(RequestKind::Renew, 3), {}, lost},
      {"renew: no record", std::nullopt, ask(RequestKind::Renew, 0), {}, lost},
      {"renew: tearing down", tearing(3, later), ask(RequestKind::Renew, 3), {}, lost},
      {"teardown: current, unexpired -> tearing-down",
       active(3, later),
       ask(RequestKind::BeginTeardown, 3),
       tearing(3, later),
       {}},
      {"teardown: current, expired -> tearing-down",
       active(3, earlier),
       ask(RequestKind::BeginTeardown, 3),
       tearing(3, earlier),
       {}},
      {"teardown: again -> unchanged", tearing(3, later), ask(RequestKind::BeginTeardown, 3), tearing(3, later), {}},
      {"teardown: stale token", active(4, later), ask(RequestKind::BeginTeardown, 3), {}, lost},
      {"teardown: free", freed(3), ask(RequestKind::BeginTeardown, 3), {}, lost},
      {"release: active -> free, token kept", active(3, later), ask(RequestKind::Release, 3), freed(3), {}},
      {"release: tearing down -> free", tearing(3, earlier), ask(RequestKind::Release, 3), freed(3), {}},
      {"release: expired but nobody claimed since", active(3, earlier), ask(RequestKind::Release, 3), freed(3), {}},
      {"release: stale token", tearing(4, later), ask(RequestKind::Release, 3), {}, lost},
      {"release: free", freed(3), ask(RequestKind::Release, 3), {}, lost},
      {"release: no record", std::nullopt, ask(RequestKind::Release, 0), {}, lost},
      {"fence: current, unexpired -> unchanged",
       active(3, later),
       ask(RequestKind::CheckFence, 3),
       active(3, later),
       {}},
      {"fence: expired", active(3, kNow), ask(RequestKind::CheckFence, 3), {}, lost},
      {"fence: stale token", active(4, later), ask(RequestKind::CheckFence, 3), {}, lost},
      {"fence: tearing down", tearing(3, later), ask(RequestKind::CheckFence, 3), {}, lost},
      {"fence: free", freed(3), ask(RequestKind::CheckFence, 3), {}, lost},
  };
}

}  // namespace

TEST_CASE("lease transitions: every request from every state (a table)") {
  for (const Case& c : cases()) {
    CAPTURE(c.name);
    auto next = nextRecord(c.current, c.request, kNow);
    if (c.refusal) {
      REQUIRE_FALSE(next.ok());
      CHECK(next.error().code == *c.refusal);
      CHECK(next.error().subject == "wt");
    } else {
      REQUIRE(next.ok());
      CHECK(same(*next, *c.next));
    }
  }
}

TEST_CASE("lease transitions: a refused claim names the holder and the expiry") {
  auto next = nextRecord(active(3, kNow + 250), ask(RequestKind::Claim, 0), kNow);
  REQUIRE_FALSE(next.ok());
  CHECK(next.error().message == "wt is held by run 1 (token 3) until 2023-11-14T22:13:20.250Z");
  CHECK(next.error().hint == "wait until it is released or expires; a lease is never taken over");
}

TEST_CASE("lease transitions: a stale token is refused with the stale and the current token") {
  auto next = nextRecord(active(7, kNow + 1), ask(RequestKind::CheckFence, 5), kNow);
  REQUIRE_FALSE(next.ok());
  CHECK(next.error().message == "token 5 for wt is stale: the current token is 7 (held by run 1)");
}

TEST_CASE("lease transitions: a teardown refusal says how to finish it by hand") {
  auto next = nextRecord(tearing(9, kNow - 1), ask(RequestKind::Claim, 0), kNow);
  REQUIRE_FALSE(next.ok());
  CHECK(next.error().message == "wt is being torn down by run 1 (token 9); it is not claimable until released");
  CHECK(next.error().hint.find("loopwright lease release wt --token 9") != std::string::npos);
}

TEST_CASE("lease transitions: tokens never repeat across claim, release and expiry") {
  std::optional<Lease> rec;
  std::uint64_t last = 0;
  for (int round = 0; round < 20; ++round) {
    auto claimed = nextRecord(rec, ask(RequestKind::Claim, 0), kNow + round * 100'000);
    REQUIRE(claimed.ok());
    CHECK(claimed->token == last + 1);
    last = claimed->token;
    // Even rounds release; odd ones let the lease expire.
    rec = round % 2 == 0 ? *nextRecord(*claimed, ask(RequestKind::Release, last), kNow) : *claimed;
  }
}

TEST_CASE("lease transitions: times print in UTC with milliseconds") {
  CHECK(formatTimeMs(0) == "1970-01-01T00:00:00.000Z");
  CHECK(formatTimeMs(kNow + 7) == "2023-11-14T22:13:20.007Z");
}
