// The qualification cache: a successful qualification is kept in the state
// dir under a fingerprint of everything its answer depends on, so that
// `qualify` can run at every job start. A failure is never stored (a host
// that failed is re-examined every time); any change of kernel, backend
// binary, loopwright build, host config, user or options misses.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "core/result.h"

namespace lw::host {

inline constexpr std::chrono::hours kQualificationMaxAge{24};

struct FingerprintInputs {
  std::string kernel;  // uname release + version
  unsigned uid = 0;
  std::string loopwrightVersion;
  std::string loopwrightBinary;  // size and mtime of the running binary
  // Backend name -> what it depends on here (Backend::hostDependencies: the
  // bwrap binary's identity, the Docker engine's version or unreachability).
  std::map<std::string, std::string> backendDependencies;
  std::string hostConfigHash;  // sha256 of the host config's text ("" when none)
  std::string options;         // the backends asked for, the image
  std::string userns;          // the user-namespace sysctls
};

// Pure: 64 hex digits naming these inputs.
std::string fingerprintOf(const FingerprintInputs& inputs);

// <stateDir>/qualify/qualification-<uid>.json
std::string cacheFile(const std::string& stateDir, unsigned uid);

// The cached report when the file holds this fingerprint and is younger than
// kQualificationMaxAge at `now` (unix seconds); nullopt otherwise.
std::optional<boost::json::object> loadCachedQualification(const std::string& file, const std::string& fingerprint,
                                                           std::int64_t now);

// Writes the report (mode 0600, atomically). Only for a satisfied floor.
Status storeCachedQualification(const std::string& file, const std::string& fingerprint,
                                const boost::json::object& report, std::int64_t now);

}  // namespace lw::host
