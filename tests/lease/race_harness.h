// Leases between real processes, for every store: two forked children
// racing to claim one resource, and a holder killed with SIGKILL. A store
// is given as a `Claim`: how a child claims with its clock `aheadMs` ahead
// of the wall clock (or, for the killed holder, at kT0).
#pragma once

#include <doctest/doctest.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include "lease_fixture.h"

namespace lw::lease::test {

// Claims `resource` for `holder` on a store whose clock is `nowMs`.
using Claim = std::function<Result<Lease>(const std::string& resource, const std::string& holder, Clock nowMs)>;

inline int exitStatus(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// In a forked child: waits for the start, claims, and exits 0 (won), 1
// (refused as held) or 2 (anything else).
[[noreturn]] inline void claimAndExit(const Claim& claim, const std::string& resource, std::int64_t aheadMs,
                                      int startFd) {
  char go;
  (void)::read(startFd, &go, 1);  // returns at EOF: when the parent lets both go
  auto lease = claim(resource, "child " + std::to_string(::getpid()), [aheadMs] { return systemNowMs() + aheadMs; });
  ::_exit(lease.ok() ? 0 : lease.error().code == ErrorCode::LeaseUnavailable ? 1 : 2);
}

// One round: two children claim `resource` at once (as `user` when given).
// Returns the two exit statuses, sorted ("01" is the one right answer).
inline std::string raceOnce(const Claim& claim, const std::string& resource, std::int64_t aheadMs,
                            const std::optional<passwd>& user) {
  int start[2];
  REQUIRE(::pipe(start) == 0);
  pid_t kids[2];
  for (pid_t& kid : kids) {
    kid = ::fork();
    if (kid == 0) {
      ::close(start[1]);
      if (user) becomeUser(*user);
      claimAndExit(claim, resource, aheadMs, start[0]);
    }
  }
  ::close(start[0]);
  ::close(start[1]);  // both start
  int a = exitStatus(kids[0]), b = exitStatus(kids[1]);
  return std::to_string(std::min(a, b)) + std::to_string(std::max(a, b));
}

// How many of `rounds` races did not end with exactly one winner. Even
// rounds race for a resource nobody claimed yet; odd ones for one whose
// last lease expired ("race-expired": each round's clock is two hours after
// the last's, and a lease lasts one).
inline int racesWithoutOneWinner(const Claim& claim, int rounds, const std::optional<passwd>& user) {
  int bad = 0;
  for (int i = 0; i < rounds; ++i) {
    std::string resource = i % 2 == 0 ? "race-" + std::to_string(i) : "race-expired";
    std::string outcome = raceOnce(claim, resource, std::int64_t{i} * 7'200'000, user);
    if (outcome != "01" && bad++ == 0) MESSAGE("round " << i << ": exit statuses " << outcome);
  }
  return bad;
}

// A child claims "wt" for "doomed holder" at kT0 (a ttl of 10 s) and is
// killed with SIGKILL while it holds it. Returns the child's exit status.
inline int killedHolder(const Claim& claim) {
  int claimed[2];
  REQUIRE(::pipe(claimed) == 0);
  pid_t holder = ::fork();
  if (holder == 0) {
    auto lease = claim("wt", "doomed holder", [] { return kT0; });
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
  return exitStatus(holder);
}

// After killedHolder: the doomed holder's "wt" is refused as held at
// `stillHeldAt` and claimed, with the next token, at `claimableAt`.
inline void checkFreedOnlyAt(Store& store, ManualClock& clock, std::int64_t stillHeldAt, std::int64_t claimableAt) {
  clock.set(stillHeldAt);
  auto early = store.claim("wt", "next holder", std::chrono::seconds(10));
  REQUIRE_FALSE(early.ok());
  CHECK(early.error().code == ErrorCode::LeaseUnavailable);
  CHECK(early.error().message.find("held by doomed holder (token 1)") != std::string::npos);
  clock.set(claimableAt);
  auto late = store.claim("wt", "next holder", std::chrono::seconds(10));
  REQUIRE(late.ok());
  CHECK(late->token == 2);
}

}  // namespace lw::lease::test
