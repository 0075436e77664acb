// Leases between real processes: claims racing in forked children, and a
// holder killed with SIGKILL.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>

#include "lease/local_store.h"
#include "lease_fixture.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

namespace {

// A child's exit status for a claim: 0 won, 1 refused as held, 2 other.
// The child's clock runs `aheadMs` ahead of the wall clock.
[[noreturn]] void claimAndExit(const std::filesystem::path& dir, const std::string& resource,
                               std::int64_t aheadMs, int startFd) {
  char go;
  (void)::read(startFd, &go, 1);  // returns at EOF: when the parent lets both go
  LocalStore store(dir, [aheadMs] { return systemNowMs() + aheadMs; });
  auto lease = store.claim(resource, "child " + std::to_string(::getpid()), 3'600s);
  ::_exit(lease.ok() ? 0 : lease.error().code == ErrorCode::LeaseUnavailable ? 1 : 2);
}

int exitStatus(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// One round: two children claim `resource` at once. Returns the two exit
// statuses, sorted ("01" is the one right answer).
std::string raceOnce(const std::filesystem::path& dir, const std::string& resource,
                     std::int64_t aheadMs, const std::optional<passwd>& user) {
  int start[2];
  REQUIRE(::pipe(start) == 0);
  pid_t kids[2];
  for (pid_t& kid : kids) {
    kid = ::fork();
    if (kid == 0) {
      ::close(start[1]);
      if (user) becomeUser(*user);
      claimAndExit(dir, resource, aheadMs, start[0]);
    }
  }
  ::close(start[0]);
  ::close(start[1]);  // both start
  int a = exitStatus(kids[0]), b = exitStatus(kids[1]);
  return std::to_string(std::min(a, b)) + std::to_string(std::max(a, b));
}

// How many of `rounds` races did not end with exactly one winner. Even
// rounds race for a resource nobody claimed yet; odd ones for one whose
// last lease expired (each round's clock is two hours after the last's, and
// a lease lasts one).
int racesWithoutOneWinner(const std::filesystem::path& dir, int rounds,
                          const std::optional<passwd>& user) {
  int bad = 0;
  for (int i = 0; i < rounds; ++i) {
    std::string resource = i % 2 == 0 ? "race-" + std::to_string(i) : "race-expired";
    std::string outcome = raceOnce(dir, resource, std::int64_t{i} * 7'200'000, user);
    if (outcome != "01" && bad++ == 0) MESSAGE("round " << i << ": exit statuses " << outcome);
  }
  return bad;
}

}  // namespace

TEST_CASE("lease race: two processes claim one resource, exactly one wins, 1000 rounds") {
  StoreScratch s;
  auto start = std::chrono::steady_clock::now();
  CHECK(racesWithoutOneWinner(s.store, 1000, std::nullopt) == 0);
  MESSAGE("1000 rounds as root in " << std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::steady_clock::now() - start).count()
                                    << " ms");
}

TEST_CASE("lease race: as an unprivileged user in a store it owns, exactly one wins") {
  auto user = lwtestUser();
  if (!user) {
    MESSAGE("[SKIPPED] not root or no user lwtest: the unprivileged run needs both");
    return;
  }
  StoreScratch s;
  s.ownedBy(*user);
  auto start = std::chrono::steady_clock::now();
  CHECK(racesWithoutOneWinner(s.store, 1000, user) == 0);
  MESSAGE("1000 rounds as lwtest in " << std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::steady_clock::now() - start).count()
                                      << " ms");
}

TEST_CASE("lease race: a holder killed with SIGKILL keeps the resource until its expiry") {
  StoreScratch s;
  int claimed[2];
  REQUIRE(::pipe(claimed) == 0);
  pid_t holder = ::fork();
  if (holder == 0) {
    auto lease = LocalStore(s.store, [] { return kT0; }).claim("wt", "doomed holder", 10s);
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

  ManualClock clock;
  LocalStore store(s.store, clock.fn());
  clock.set(kT0 + 9'999);
  auto early = store.claim("wt", "next holder", 10s);
  REQUIRE_FALSE(early.ok());
  CHECK(early.error().code == ErrorCode::LeaseUnavailable);
  CHECK(early.error().message.find("held by doomed holder (token 1)") != std::string::npos);
  clock.set(kT0 + 10'000);
  auto late = store.claim("wt", "next holder", 10s);
  REQUIRE(late.ok());
  CHECK(late->token == 2);
}
