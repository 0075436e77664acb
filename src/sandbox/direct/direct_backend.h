// direct-dedicated: no containment at all — the step runs on the machine as
// it is, for dedicated, ephemeral runners where the machine is the sandbox.
// What it does guarantee: the per-step supervisor's tree cleanup (also when
// loopwright dies), a new session, no inherited descriptors, the step's
// allow-listed environment only, no capabilities and no-new-privileges.
// Negotiation must only pick it where the policy allows it
// (EffectiveSandbox::allowDedicatedDirectOverride).
#pragma once

#include <memory>
#include <mutex>
#include <optional>

#include "sandbox/backend.h"

namespace lw::sandbox::direct {

// Observed in a forked child: PR_SET_CHILD_SUBREAPER works and
// /proc/thread-self/children is readable (the kill loop needs both).
bool observeSubreaper();

// The report for that observation. Pure.
ProbeReport classify(bool subreaper);

// The portable build's report (direct_backend_portable.cpp): nullopt when the
// POSIX launcher's cleanup canary saw its daemon die, else what it saw. Pure.
ProbeReport classifyPosix(const std::optional<std::string>& cleanupFailure);

class DirectBackend : public Backend {
 public:
  BackendId id() const override { return BackendId::DirectDedicated; }
  BackendTraits traits() const override {
    BackendTraits t;
    t.runsUnconfined = true;
    return t;
  }
  const ProbeReport& probe() override;
  // Fails with SANDBOX_BACKEND_UNAVAILABLE when the tree cannot be cleaned up
  // here, SANDBOX_LAUNCH_FAILED when spawning fails.
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override;

 private:
  std::mutex mu_;
  std::optional<ProbeReport> report_;
};

std::unique_ptr<Backend> makeDirectBackend();

}  // namespace lw::sandbox::direct
