// linux-landlock: the step runs as a plain child of the per-step supervisor,
// confined by a Landlock domain, a seccomp filter, no capabilities and
// no-new-privileges — plus user/net/pid namespaces only where those cannot
// do the job (loopback-only networking; signal scoping before ABI 6).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "sandbox/backend.h"
#include "sandbox/landlock/landlock_probe.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::sandbox::landlock {

class LandlockBackend : public Backend {
 public:
  BackendId id() const override { return BackendId::LinuxLandlock; }
  const ProbeReport& probe() override;
  // Fails with SANDBOX_BACKEND_UNAVAILABLE when the probe said so, with
  // SANDBOX_CAPABILITY_INSUFFICIENT when the spec asks for what this kernel
  // cannot enforce (see landlock_plan.h), with SANDBOX_LAUNCH_FAILED when a
  // required path is missing or a child setup fails.
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override;

 private:
  Result<std::shared_ptr<const seccomp::BpfProgram>> filterFor(const seccomp::Options& o);

  std::mutex mu_;
  std::optional<ProbeReport> report_;
  Observation observation_;
  std::map<std::pair<NetworkMode, bool>, std::shared_ptr<const seccomp::BpfProgram>> filters_;
};

std::unique_ptr<Backend> makeLandlockBackend();

}  // namespace lw::sandbox::landlock
