// Assertions shared by the escape cases.
#pragma once

#include <algorithm>
#include <string_view>

#include <doctest/doctest.h>

#include "escape/escape_harness.h"

namespace lw::escape {

// The hostile program exited 0 (every attempt blocked) and reported no escape.
inline void checkBlocked(const ExecResult& r) {
  INFO(r.describe());
  CHECK(r.status == 0);
  CHECK(r.out.find("ESCAPED") == std::string::npos);
  CHECK(r.out.find("blocked") != std::string::npos);
}

// Either the attack ran and was blocked, or negotiation refused the backend
// (exit 3, SANDBOX_CAPABILITY_INSUFFICIENT) because the case was run with
// --require for a capability the backend honestly reports as not enforced.
// A refusal is accepted only from a backend listed in `mayRefuse`.
inline void checkBlockedOrRefused(const Runner& r, const ExecResult& result,
                                  std::initializer_list<std::string_view> mayRefuse) {
  bool refusable = std::find(mayRefuse.begin(), mayRefuse.end(), r.backend) != mayRefuse.end();
  if (refusable && result.status == 3) {
    INFO(result.describe());
    CHECK(result.err.find("SANDBOX_CAPABILITY_INSUFFICIENT") != std::string::npos);
    return;
  }
  checkBlocked(result);
}

}  // namespace lw::escape
