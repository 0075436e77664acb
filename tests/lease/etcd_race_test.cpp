// The etcd store between real processes: claims racing in forked children
// (the txn's compare lets exactly one win), and a holder killed with SIGKILL.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "core/http_curl.h"
#include "etcd_server.h"
#include "lease/etcd_store.h"
#include "race_harness.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

namespace {

EtcdStoreOptions optionsFor(EtcdServer& server, const std::string& prefix) {
  return EtcdStoreOptions{server.endpoint(), prefix, 2000, 16, 5000ms};
}

// A claim of `ttl` on the etcd store `options` names, over its own
// connection (a forked child must not share its parent's).
Claim etcdClaim(const EtcdStoreOptions& options, Ttl ttl) {
  return [options, ttl](const std::string& resource, const std::string& holder, Clock nowMs) {
    http::CurlTransport transport{http::Policy{}};
    return EtcdStore(transport, options, std::move(nowMs)).claim(resource, holder, ttl);
  };
}

}  // namespace

TEST_CASE("etcd race: two processes claim one key, exactly one wins, 200 rounds") {
  LW_REQUIRE_ETCD(server);
  EtcdStoreOptions options = optionsFor(server, server.freshPrefix("race"));
  auto start = std::chrono::steady_clock::now();
  // Even rounds race for a key nobody wrote (compare CREATE == 0); odd ones
  // for one whose last lease expired (compare MOD == the revision read).
  CHECK(racesWithoutOneWinner(etcdClaim(options, 3'600s), 200, std::nullopt) == 0);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  MESSAGE("200 rounds against etcd in " << ms.count() << " ms (" << ms.count() / 200.0 << " ms a round)");
  http::CurlTransport transport{http::Policy{}};
  auto last = EtcdStore(transport, options, systemNowMs).list();
  REQUIRE(last.ok());
  auto expired = std::find_if(last->begin(), last->end(), [](const Lease& l) { return l.resource == "race-expired"; });
  REQUIRE(expired != last->end());
  CHECK(expired->token == 100);  // one claim won per odd round, none lost, none doubled
}

TEST_CASE("etcd race: a holder killed with SIGKILL keeps the key until expiry plus the skew margin") {
  LW_REQUIRE_ETCD(server);
  EtcdStoreOptions options = optionsFor(server, server.freshPrefix("killed"));
  CHECK(killedHolder(etcdClaim(options, 10s)) == 128 + SIGKILL);

  http::CurlTransport transport{http::Policy{}};
  ManualClock clock;
  EtcdStore store(transport, options, clock.fn());
  // Expired at kT0 + 10 s, but still within the 2000 ms skew margin.
  checkFreedOnlyAt(store, clock, kT0 + 10'000 + 1'999, kT0 + 12'000);
}
