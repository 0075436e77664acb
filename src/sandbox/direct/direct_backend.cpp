#include "sandbox/direct/direct_backend.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "sandbox/limits/limits_applier.h"
#include "sandbox/process/child_setups.h"
#include "sandbox/process/orphan_sweep.h"

namespace lw::sandbox::direct {
namespace {

constexpr const char* kNoContainment =
    "direct-dedicated has no containment; it relies on a dedicated, ephemeral machine";

}  // namespace

// Whether this process can be a child subreaper that reads its children's
// list. Asked of this process itself: every supervised spawn makes it a
// subreaper of last resort anyway (orphan_sweep.h), and a child forked to
// ask would cost each start a fork of the orchestrator.
bool observeSubreaper() {
  if (!process::becomeSubreaperOfLastResort()) return false;
  int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  close(fd);
  return true;
}

ProbeReport classify(bool subreaper) {
  ProbeReport r;
  r.backend = BackendId::DirectDedicated;
  r.version = "direct";
  r.available = subreaper;
  if (!subreaper)
    r.unavailableReason =
        "no child subreaper or /proc/thread-self/children: the process tree "
        "cannot be cleaned up";
  for (Capability c : kAllCapabilities) r.capabilities[c] = {Support::Absent, kNoContainment};
  for (NetworkMode m : kAllNetworkModes) r.networkModes[m] = {Support::Absent, kNoContainment};
  if (subreaper) {
    r.capabilities[Capability::ProcessTreeCleanup] = {
        Support::Enforced,
        "subreaper supervisor kills every descendant when the step ends or loopwright dies; "
        "loopwright, a subreaper too, sweeps them if the step kills or stops its supervisor "
        "(its own tree only: every other process of the machine, loopwright included, stays in "
        "the step's reach, as on any machine without a sandbox)"};
    // The step has the machine's network as it is: nothing is isolated, and
    // on a dedicated, ephemeral machine there is no other tenant to protect.
    r.networkModes[NetworkMode::AllowOutbound] = {
        Support::Enforced, "the machine's own network, unfiltered (dedicated, ephemeral machine only)"};
    r.networkModes[NetworkMode::AllowList] = {Support::Absent,
                                              "no network namespace: a step could connect around the egress proxy"};
  }
  return r;
}

const ProbeReport& DirectBackend::probe() {
  std::lock_guard lock(mu_);
  if (!report_) report_ = classify(observeSubreaper());
  return *report_;
}

Result<std::unique_ptr<process::RunningProcess>> DirectBackend::launch(const StepSpec& spec) {
  const ProbeReport& report = probe();
  if (!report.available)
    return makeError(ErrorCode::SandboxBackendUnavailable, "direct-dedicated: " + report.unavailableReason, {},
                     "direct-dedicated");
  process::SpawnRequest req = spawnRequestFor(spec);
  auto limited = limits::limitStep(spec.limits, {"", std::string(limits::kNoPrivateTmp)}, req);
  if (!limited) return std::move(limited).error();
  req.childSetup.push_back(process::dropAllCapabilities());
  auto proc = process::spawn(req);
  if (!proc) return proc;
  return limits::releasingLimitsAfter(std::move(proc).value(), std::move(limited).value());
}

std::unique_ptr<Backend> makeDirectBackend() { return std::make_unique<DirectBackend>(); }

}  // namespace lw::sandbox::direct
