// Assertions shared by the escape cases.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

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
// --require `capability` and the backend's probe honestly reports it as not
// enforced. A backend that claims it must block the attack: no refusal then.
inline void checkBlockedOrRefused(const Runner& r, const ExecResult& result, Capability capability) {
  if (!probeEnforces(r, capability)) {
    INFO(result.describe());
    CHECK(result.status == 3);
    CHECK(result.err.find("SANDBOX_CAPABILITY_INSUFFICIENT") != std::string::npos);
    return;
  }
  checkBlocked(result);
}

// The size of a file, 0 when it is not there.
inline std::uintmax_t sizeOf(const std::filesystem::path& p) {
  std::error_code ec;
  auto n = std::filesystem::file_size(p, ec);
  return ec ? 0 : n;
}

// True once the file stops growing (the hostile daemon writes every 20 ms).
inline bool stopsGrowing(const std::filesystem::path& p, std::chrono::milliseconds within) {
  auto until = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < until) {
    auto a = sizeOf(p);
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    if (sizeOf(p) == a) return true;
  }
  return false;
}

}  // namespace lw::escape
