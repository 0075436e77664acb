// direct-dedicated in the portable build: the POSIX launcher
// (process/posix/posix_launcher.h) in place of the subreaper supervisor.
// processTreeCleanup is claimed only as far as the cleanup canary observed
// it (process/posix/cleanup_canary.h).
#include <unistd.h>

#include "core/executables.h"
#include "sandbox/direct/direct_backend.h"
#include "sandbox/process/posix/cleanup_canary.h"
#include "sandbox/process/posix/posix_launcher.h"

namespace lw::sandbox::direct {
namespace {

constexpr const char* kNoContainment =
    "direct-dedicated has no containment; it relies on a dedicated, ephemeral machine";

std::optional<std::string> observeCleanup() {
  const auto loopwright = siblingExecutable(kFrontExecutable);
  if (loopwright.empty() || ::access(loopwright.c_str(), X_OK) != 0)
    return std::string("no loopwright executable beside this one to run the cleanup canary");
  std::error_code ec;
  const auto scratch = std::filesystem::temp_directory_path(ec) / ("lw-direct-probe-" + std::to_string(::getpid()));
  return process::posix::daemonSurvivesCleanup(loopwright, scratch);
}

}  // namespace

// The portable build has no subreaper: what stands for it is the observed
// cleanup. Kept for the header's sake; the portable probe does not call it.
bool observeSubreaper() { return false; }

// The POSIX launcher's report: available everywhere (it needs nothing of
// the kernel), its tree cleanup enforced only as observed.
ProbeReport classifyPosix(const std::optional<std::string>& cleanupFailure) {
  ProbeReport r;
  r.backend = BackendId::DirectDedicated;
  r.version = "direct (POSIX launcher)";
  r.available = true;
  for (Capability c : kAllCapabilities) r.capabilities[c] = {Support::Absent, kNoContainment};
  for (NetworkMode m : kAllNetworkModes) r.networkModes[m] = {Support::Absent, kNoContainment};
  r.capabilities[Capability::ProcessTreeCleanup] =
      cleanupFailure ? SupportStatus{Support::Partial, process::posix::kCleanupWithoutCanary + *cleanupFailure}
                     : SupportStatus{Support::Enforced, process::posix::kCleanupSeenToHold};
  r.networkModes[NetworkMode::AllowOutbound] = {
      Support::Enforced, "the machine's own network, unfiltered (dedicated, ephemeral machine only)"};
  return r;
}

const ProbeReport& DirectBackend::probe() {
  std::lock_guard lock(mu_);
  if (!report_) report_ = classifyPosix(observeCleanup());
  return *report_;
}

Result<std::unique_ptr<process::RunningProcess>> DirectBackend::launch(const StepSpec& spec) {
  const ProbeReport& report = probe();
  if (!report.available)
    return makeError(ErrorCode::SandboxBackendUnavailable, "direct-dedicated: " + report.unavailableReason, {},
                     "direct-dedicated");
  // No resource limits here: they are applied in the child by the Linux
  // launcher, which the POSIX one has no hook for.
  return process::posix::spawnPosix(spawnRequestFor(spec));
}

std::unique_ptr<Backend> makeDirectBackend() { return std::make_unique<DirectBackend>(); }

}  // namespace lw::sandbox::direct
