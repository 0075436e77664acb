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
#include "race_harness.h"

using namespace lw;
using namespace lw::lease;
using namespace lw::lease::test;
using namespace std::chrono_literals;

namespace {

// A claim of one hour on the local store in `dir`.
Claim localClaim(const std::filesystem::path& dir) {
  return [dir](const std::string& resource, const std::string& holder, Clock nowMs) {
    return LocalStore(dir, std::move(nowMs)).claim(resource, holder, 3'600s);
  };
}

}  // namespace

TEST_CASE("lease race: two processes claim one resource, exactly one wins, 1000 rounds") {
  StoreScratch s;
  auto start = std::chrono::steady_clock::now();
  CHECK(racesWithoutOneWinner(localClaim(s.store), 1000, std::nullopt) == 0);
  MESSAGE("1000 rounds as root in "
          << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()
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
  CHECK(racesWithoutOneWinner(localClaim(s.store), 1000, user) == 0);
  MESSAGE("1000 rounds as lwtest in "
          << std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count()
          << " ms");
}

TEST_CASE("lease race: a holder killed with SIGKILL keeps the resource until its expiry") {
  StoreScratch s;
  Claim tenSeconds = [&s](const std::string& resource, const std::string& holder, Clock nowMs) {
    return LocalStore(s.store, std::move(nowMs)).claim(resource, holder, 10s);
  };
  CHECK(killedHolder(tenSeconds) == 128 + SIGKILL);

  ManualClock clock;
  LocalStore store(s.store, clock.fn());
  checkFreedOnlyAt(store, clock, kT0 + 9'999, kT0 + 10'000);
}
