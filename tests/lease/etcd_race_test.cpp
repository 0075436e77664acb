// The etcd store between real processes: claims racing in forked children
// (the txn's compare lets exactly one win), and a holder killed with SIGKILL.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "core/http_curl.h"
#include "lease/etcd_store.h"
#include "lease_fixture.h"
#include "etcd_server.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

namespace {

EtcdStoreOptions optionsFor(EtcdServer& server, const std::string& prefix) {
  return EtcdStoreOptions{server.endpoint(), prefix, 2000, 16, 5000ms};
}

// A child's exit status for a claim: 0 won, 1 refused as held, 2 other.
[[noreturn]] void claimAndExit(const EtcdStoreOptions& options, const std::string& resource,
                               std::int64_t aheadMs, int startFd) {
  char go;
  (void)::read(startFd, &go, 1);  // returns at EOF: when the parent lets both go
  http::CurlTransport transport{http::Policy{}};
  EtcdStore store(transport, options, [aheadMs] { return systemNowMs() + aheadMs; });
  auto lease = store.claim(resource, "child " + std::to_string(::getpid()), 3'600s);
  ::_exit(lease.ok() ? 0 : lease.error().code == ErrorCode::LeaseUnavailable ? 1 : 2);
}

int exitStatus(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// One round: two children claim `resource` at once; their exit statuses
// sorted ("01" is the one right answer).
std::string raceOnce(const EtcdStoreOptions& options, const std::string& resource, std::int64_t aheadMs) {
  int start[2];
  REQUIRE(::pipe(start) == 0);
  pid_t kids[2];
  for (pid_t& kid : kids) {
    kid = ::fork();
    if (kid == 0) {
      ::close(start[1]);
      claimAndExit(options, resource, aheadMs, start[0]);
    }
  }
  ::close(start[0]);
  ::close(start[1]);
  int a = exitStatus(kids[0]), b = exitStatus(kids[1]);
  return std::to_string(std::min(a, b)) + std::to_string(std::max(a, b));
}

}  // namespace

TEST_CASE("etcd race: two processes claim one key, exactly one wins, 200 rounds") {
  LW_REQUIRE_ETCD(server);
  EtcdStoreOptions options = optionsFor(server, server.freshPrefix("race"));
  int bad = 0;
  auto start = std::chrono::steady_clock::now();
  // Even rounds race for a key nobody wrote (compare CREATE == 0); odd ones
  // for one whose last lease expired (each round's clock is two hours after
  // the last's, a lease lasts one: compare MOD == the revision read).
  for (int i = 0; i < 200; ++i) {
    std::string resource = i % 2 == 0 ? "race-" + std::to_string(i) : "race-expired";
    std::string outcome = raceOnce(options, resource, std::int64_t{i} * 7'200'000);
    if (outcome != "01" && bad++ == 0) MESSAGE("round " << i << ": exit statuses " << outcome);
  }
  CHECK(bad == 0);
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
  int claimed[2];
  REQUIRE(::pipe(claimed) == 0);
  pid_t holder = ::fork();
  if (holder == 0) {
    http::CurlTransport transport{http::Policy{}};
    auto lease = EtcdStore(transport, options, [] { return kT0; }).claim("wt", "doomed holder", 10s);
    char done = lease.ok() ? '1' : '0';
    (void)::write(claimed[1], &done, 1);
    for (;;) ::pause();
  }
  ::close(claimed[1]);
  char done = 0;
  REQUIRE(::read(claimed[0], &done, 1) == 1);
  ::close(claimed[0]);
  REQUIRE(done == '1');
  ::kill(holder, SIGKILL);
  CHECK(exitStatus(holder) == 128 + SIGKILL);

  http::CurlTransport transport{http::Policy{}};
  ManualClock clock;
  EtcdStore store(transport, options, clock.fn());
  clock.set(kT0 + 10'000 + 1'999);  // expired, but within the 2000 ms margin
  auto early = store.claim("wt", "next holder", 10s);
  REQUIRE_FALSE(early.ok());
  CHECK(early.error().code == ErrorCode::LeaseUnavailable);
  CHECK(early.error().message.find("held by doomed holder (token 1)") != std::string::npos);
  clock.set(kT0 + 12'000);
  auto late = store.claim("wt", "next holder", 10s);
  REQUIRE(late.ok());
  CHECK(late->token == 2);
}
