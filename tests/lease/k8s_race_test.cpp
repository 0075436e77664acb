// The Kubernetes store between real processes, against the local API
// server: claims racing in forked children (the replace's resourceVersion,
// or the create's AlreadyExists, lets exactly one win), and a holder killed
// with SIGKILL.
#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>

#include "k8s_fixture.h"
#include "race_harness.h"
#include "support/k8s_server_process.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using lw::test::K8sServerProcess;
using namespace std::chrono_literals;

namespace {

// A claim of `ttl` on the store `options` names, over its own connection (a
// forked child must not share its parent's).
Claim k8sClaim(const K8sStoreOptions& options, Ttl ttl) {
  return [options, ttl](const std::string& resource, const std::string& holder, Clock nowMs) {
    http::CurlTransport transport{http::Policy{}};
    return K8sStore(transport, options, std::move(nowMs)).claim(resource, holder, ttl);
  };
}

// The server in a process of its own (k8s_server_process.h): these tests fork.
struct K8sForkingScratch {
  K8sServerProcess server;
  lw::test::TempDir dir;
  std::string tokenFile = writeK8sToken(dir);
  K8sStoreOptions options() const { return k8sOptionsAt(server.url(), tokenFile); }
};

}  // namespace

TEST_CASE("k8s race: two processes claim one Lease, exactly one wins, 60 rounds") {
  K8sForkingScratch scratch;
  auto start = std::chrono::steady_clock::now();
  CHECK(racesWithoutOneWinner(k8sClaim(scratch.options(), 3'600s), 60, std::nullopt) == 0);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  MESSAGE("60 rounds against the local API server in " << ms.count() << " ms");
  http::CurlTransport transport{http::Policy{}};
  auto last = K8sStore(transport, scratch.options(), systemNowMs).list();
  REQUIRE(last.ok());
  auto expired = std::find_if(last->begin(), last->end(), [](const Lease& l) { return l.resource == "race-expired"; });
  REQUIRE(expired != last->end());
  CHECK(expired->token == 30);  // one claim won per odd round, none lost, none doubled
  CHECK(scratch.server.stop() == std::vector<std::string>{});
}

TEST_CASE("k8s race: a holder killed with SIGKILL keeps the Lease until expiry plus the skew margin") {
  K8sForkingScratch scratch;
  CHECK(killedHolder(k8sClaim(scratch.options(), 10s)) == 128 + SIGKILL);
  http::CurlTransport transport{http::Policy{}};
  ManualClock clock;
  K8sStore store(transport, scratch.options(), clock.fn());
  checkFreedOnlyAt(store, clock, kT0 + 10'000 + 1'999, kT0 + 12'000);
  CHECK(scratch.server.stop() == std::vector<std::string>{});
}
