// Assertions shared by the escape cases.
#pragma once

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

}  // namespace lw::escape
