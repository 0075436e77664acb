// On-disk cache of a probe result, so that `sandbox exec` does not pay a
// whole bwrap run for the probe on every call. The key names everything the
// answer depends on (the bwrap binary's identity, the kernel, the user, the
// user-namespace limit, loopwright's version); a different key or an entry
// older than kProbeCacheMaxAge is re-probed. A stale "enforced" cannot
// weaken a step: bwrap fails closed when a namespace or the filter cannot
// be set up at launch.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "core/environment.h"
#include "sandbox/backend.h"

namespace lw::sandbox::bwrap {

inline constexpr std::chrono::seconds kProbeCacheMaxAge{3600};

// $XDG_CACHE_HOME/loopwright or $HOME/.cache/loopwright; nullopt without either.
std::optional<std::filesystem::path> probeCacheDir(const Environment& env);

// The identity of this host's answer for `bwrapPath`; empty when bwrap is missing.
std::string probeCacheKey(const std::string& bwrapPath);

std::optional<ProbeReport> loadCachedProbe(const std::filesystem::path& file,
                                           const std::string& key);

// Best effort (a read-only home only costs speed): written to a temporary
// file and renamed, mode 0600.
void storeCachedProbe(const std::filesystem::path& file, const std::string& key,
                      const ProbeReport& report);

}  // namespace lw::sandbox::bwrap
