// The POSIX launcher's tree cleanup against the daemon its cleanup canary
// leaves (loopwright's `qualify --canary daemon`: the middle process calls
// setsid, forks and exits at once; the daemon calls setsid and runs
// loopwright anew), again and again: the cleanup must not depend on looking
// at the right moment. Before the tree's mark (tree_mark.h) some runs leaked.
#include <doctest/doctest.h>

#include <string>

#include "sandbox/process/posix/cleanup_canary.h"
#include "support/temp_dir.h"

TEST_CASE("portable cleanup: the daemonising canary leaves nothing behind in 30 runs out of 30") {
  lw::test::TempDir dir;
  constexpr int kRuns = 30;
  int leaked = 0;
  std::string first;
  for (int i = 0; i < kRuns; ++i) {
    const auto failure =
        lw::sandbox::process::posix::daemonSurvivesCleanup(LOOPWRIGHT_BIN, dir.root / ("run-" + std::to_string(i)));
    if (!failure) continue;
    ++leaked;
    if (first.empty()) first = *failure;
  }
  MESSAGE(leaked << " of " << kRuns << " daemons outlived their step" << (first.empty() ? "" : ": " + first));
  CHECK(leaked == 0);
}
