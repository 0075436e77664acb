// On-disk cache of a backend's probe result, so that `sandbox exec` does not
// pay a whole sandbox run for the probe on every call. Every backend that
// caches names in its key everything its answer depends on (its helper
// binary's identity, the kernel, the user, the user-namespace limits,
// loopwright's version); a different key or an entry older than
// kProbeCacheMaxAge is re-probed. A stale "enforced" cannot weaken a step:
// every backend fails its launch closed when a mechanism cannot be set up.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "core/environment.h"
#include "sandbox/backend.h"

namespace lw::sandbox {

inline constexpr std::chrono::seconds kProbeCacheMaxAge{3600};

// $XDG_CACHE_HOME/loopwright or $HOME/.cache/loopwright; nullopt without either.
std::optional<std::filesystem::path> probeCacheDir(const Environment& env);

// <probeCacheDir>/<backend>-probe-<uid>.json; nullopt without a cache dir.
std::optional<std::filesystem::path> probeCacheFile(const Environment& env, BackendId backend);

// The report stored under `key` in `file` when it is younger than
// kProbeCacheMaxAge at `now` (unix seconds); nullopt for a missing,
// unreadable, foreign-keyed or stale entry.
std::optional<ProbeReport> loadCachedProbe(const std::filesystem::path& file, const std::string& key, std::int64_t now);
std::optional<ProbeReport> loadCachedProbe(const std::filesystem::path& file, const std::string& key);

// Best effort (a read-only home only costs speed): written to a temporary
// file and renamed, mode 0600, in a directory of mode 0700. `probedAt` is
// unix seconds.
void storeCachedProbe(const std::filesystem::path& file, const std::string& key, const ProbeReport& report,
                      std::int64_t probedAt);
void storeCachedProbe(const std::filesystem::path& file, const std::string& key, const ProbeReport& report);

// The report cached under `key` in `file` when there is a fresh one (and
// `readCache`), else what `run` observes, stored under `key`. An empty key
// (the backend's helper binary is missing) or no file: `run`, uncached.
ProbeReport probeThroughCache(const std::optional<std::filesystem::path>& file, bool readCache, const std::string& key,
                              const std::function<ProbeReport()>& run);

}  // namespace lw::sandbox
