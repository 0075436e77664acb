// linux-bwrap: each step in a bubblewrap sandbox built by bwrap_plan.h, with
// the seccomp filter of sandbox/seccomp passed as --seccomp 4.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/environment.h"
#include "sandbox/backend.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::sandbox::bwrap {

struct BwrapConfig {
  std::string bwrapPath;                           // absolute; empty when bwrap is not installed
  std::optional<std::filesystem::path> cacheFile;  // the probe cache; nullopt: none
  bool readCache = true;                           // false: always probe afresh (and refresh the cache)
};

// Finds bwrap on the PATH of `env` (then /usr/bin) and the cache file.
BwrapConfig bwrapConfigFor(const Environment& env);

// Which bwrap binary this is: its path and file identity (device, inode,
// size, modification time); empty when it cannot be stat'ed.
std::string bwrapIdentity(const std::string& bwrapPath);

// The probe cache key (probe_cache.h) for `bwrapPath`: the binary's identity,
// the kernel, the user, the user-namespace limit, loopwright's version;
// empty when bwrap is missing.
std::string bwrapProbeCacheKey(const std::string& bwrapPath);

class BwrapBackend final : public Backend {
 public:
  explicit BwrapBackend(BwrapConfig config) : config_(std::move(config)) {}

  BackendId id() const override { return BackendId::LinuxBwrap; }
  BackendTraits traits() const override {
    BackendTraits t;
    t.usesUserNamespaces = true;
    return t;
  }
  // One bwrap run with the production flags, or the cached answer of one
  // (see sandbox/probe_cache.h); cached in this object too.
  const ProbeReport& probe() override;
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override;
  std::vector<limits::Enforcement> limitsEnforcement(const ResourceLimits& l) override;
  // The bwrap binary's path and file identity, or "bwrap missing".
  std::string hostDependencies() override;

 private:
  ProbeReport runProbe();

  BwrapConfig config_;
  std::optional<ProbeReport> report_;
  seccomp::FilterCache filters_;
};

}  // namespace lw::sandbox::bwrap
