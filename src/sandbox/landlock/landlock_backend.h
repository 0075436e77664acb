// linux-landlock: the step runs as a plain child of the per-step supervisor,
// confined by a Landlock domain, a seccomp filter, no capabilities and
// no-new-privileges — plus user/net/pid namespaces only where those cannot
// do the job (loopback-only networking; signal scoping before ABI 6).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/environment.h"

#include "sandbox/backend.h"
#include "sandbox/landlock/landlock_plan.h"
#include "sandbox/landlock/landlock_probe.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::sandbox::landlock {

struct LandlockConfig {
  // Where the probe answer is kept between runs (`sandbox exec` must not pay
  // a namespace probe per call). A stale "enforced" cannot weaken a step:
  // every mechanism fails the launch closed if the kernel refuses it.
  std::optional<std::filesystem::path> cacheFile;
  bool readCache = true;
};

// The config for this environment: the cache under $XDG_CACHE_HOME or $HOME.
LandlockConfig landlockConfigFor(const Environment& env);

// The probe cache key: what the answer depends on (kernel, user, user
// namespace limits, Landlock ABI, loopwright's version).
std::string landlockProbeCacheKey();

// What launch() needs to know from a report, fresh or cached. Pure.
ConfinementFacts confinementFactsFrom(const ProbeReport& report, int abi, bool holdsSetpcap, bool holdsSysAdmin);

class LandlockBackend : public Backend {
 public:
  explicit LandlockBackend(LandlockConfig config = {}) : config_(std::move(config)) {}
  BackendId id() const override { return BackendId::LinuxLandlock; }
  BackendTraits traits() const override {
    BackendTraits t;
    t.egress = BackendTraits::EgressPath::ByBackend;  // egress_listener.h
    return t;
  }
  const ProbeReport& probe() override;
  // Fails with SANDBOX_BACKEND_UNAVAILABLE when the probe said so, with
  // SANDBOX_CAPABILITY_INSUFFICIENT when the spec asks for what this kernel
  // cannot enforce (see landlock_plan.h), with SANDBOX_LAUNCH_FAILED when a
  // required path is missing or a child setup fails.
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override;
  // The plan launch() applies for `spec` on this host (probe, host facts and
  // canonical paths included), with the same errors.
  Result<Plan> planFor(const StepSpec& spec);

 private:
  std::string resolve(const std::string& path);

  LandlockConfig config_;
  std::mutex mu_;
  std::optional<ProbeReport> report_;
  std::map<std::string, std::string> systemPaths_;  // canonical forms, computed once
  seccomp::FilterCache filters_;
};

std::unique_ptr<Backend> makeLandlockBackend();  // no probe cache
std::unique_ptr<Backend> makeLandlockBackend(const Environment& env, bool readCache);

}  // namespace lw::sandbox::landlock
