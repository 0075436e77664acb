#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "lease/local_store.h"
#include "lease/renewer.h"
#include "lease_fixture.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

TEST_CASE("lease renewer: renewal keeps going while the holder's cleanup is blocked") {
  StoreScratch s;
  LocalStore store(s.store, systemNowMs);
  const Ttl ttl = 300ms;
  auto held = store.claim("sandbox.7", "run 7", ttl);
  REQUIRE(held.ok());
  Renewer renewer(store, *held, ttl);
  // The holder's cleanup blocks for more than three times the ttl, on this
  // thread; only the renewer's own thread keeps the lease.
  std::this_thread::sleep_for(1000ms);
  CHECK(systemNowMs() > held->expiresAtMs + 600);
  CHECK(store.checkFence(*held).ok());
  CHECK_FALSE(renewer.lost());
  Lease latest = renewer.current();
  CHECK(latest.token == held->token);
  CHECK(latest.expiresAtMs > held->expiresAtMs + 600);
  auto other = store.claim("sandbox.7", "run 8", ttl);
  REQUIRE_FALSE(other.ok());
  CHECK(other.error().code == ErrorCode::LeaseUnavailable);
}

TEST_CASE("lease renewer: a refused renewal is reported as lost and renewing stops") {
  ClockedStore f;
  auto& [s, clock, store] = f;
  auto held = store.claim("wt", "run 1", 30ms);
  REQUIRE(held.ok());
  clock.set(kT0 + 30);  // expired before the first renewal (at 10 ms)
  REQUIRE(store.claim("wt", "run 2", 60s).ok());
  Renewer renewer(store, *held, 30ms);
  for (int i = 0; i < 200 && !renewer.lost(); ++i) std::this_thread::sleep_for(5ms);
  REQUIRE(renewer.lost());
  CHECK(renewer.lostBecause()->code == ErrorCode::LeaseLost);
  CHECK(renewer.current().expiresAtMs == held->expiresAtMs);
  renewer.stop();
}

TEST_CASE("lease renewer: stop() returns at once, not after a renewal period") {
  StoreScratch s;
  LocalStore store(s.store, systemNowMs);
  auto held = store.claim("wt", "run 1", 60s);
  REQUIRE(held.ok());
  constexpr auto kTtl = 60s;
  auto start = std::chrono::steady_clock::now();
  {
    Renewer renewer(store, *held, kTtl);
    std::this_thread::sleep_for(10ms);
  }  // the destructor stops
  // Waiting for the first renewal would take its period (ttl/3, 20 s);
  // stopping at once takes ~10 ms. A tenth of the period tells the two apart
  // and, at 200 times the expected time, only a hang misses it.
  CHECK(std::chrono::steady_clock::now() - start < kTtl / 3 / 10);
  CHECK(store.checkFence(*held).ok());
}
