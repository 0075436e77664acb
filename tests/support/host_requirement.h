// Integration tests need things of the host (bubblewrap, user namespaces,
// Landlock, a Docker engine). Where one is missing the test is skipped with
// its reason printed, and ctest reports it skipped; under CI=true the
// capabilities this project's CI machine has are required, so a skip there
// is a failure.
#pragma once

#include <string>

namespace lw::test {

// True when the test may go on. Otherwise prints "[SKIPPED] <reason>" (or
// fails the test under CI=true) and the caller must return.
bool requireHost(bool available, const std::string& reason);

}  // namespace lw::test

#define LW_REQUIRE_HOST(cond, reason)                       \
  do {                                                      \
    if (!::lw::test::requireHost((cond), (reason))) return; \
  } while (0)
