#include <doctest/doctest.h>

#include "sandbox/process/orphan_sweep.h"

using namespace lw::sandbox::process;

TEST_CASE("orphan sweep: only a step's stray is swept, never one of loopwright's own children") {
  constexpr pid_t kOwnSession = 100;
  struct Case {
    const char* name;
    ChildFacts child;
    bool stray;
  };
  const Case cases[] = {
      {"a step's daemon, re-parented here", {7, 7, true, false}, true},
      {"a supervisor: registered, our session, no no-new-privileges", {8, kOwnSession, false, true}, false},
      {"a launcher (bwrap): registered, its own session", {9, 9, false, true}, false},
      {"a registered child with no-new-privileges", {10, 10, true, true}, false},
      {"an unregistered helper in our session (a probe's fork)", {11, kOwnSession, true, false}, false},
      {"an unregistered helper in its own session (a watchdog)", {12, 12, false, false}, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(isStrayStepProcess(c.child, kOwnSession) == c.stray);
  }
}
