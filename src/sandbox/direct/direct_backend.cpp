#include "sandbox/direct/direct_backend.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "sandbox/limits/limits_applier.h"
#include "sandbox/process/child_setups.h"

namespace lw::sandbox::direct {
namespace {

constexpr const char* kNoContainment =
    "direct-dedicated has no containment; it relies on a dedicated, ephemeral machine";

}  // namespace

bool observeSubreaper() {
  pid_t c = fork();
  if (c < 0) return false;
  if (c == 0) {
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) _exit(1);
    int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
    _exit(fd >= 0 ? 0 : 2);
  }
  int st = 0;
  while (waitpid(c, &st, 0) < 0)
    if (errno != EINTR) return false;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

ProbeReport classify(bool subreaper) {
  ProbeReport r;
  r.backend = BackendId::DirectDedicated;
  r.version = "direct";
  r.available = subreaper;
  if (!subreaper)
    r.unavailableReason = "no child subreaper or /proc/thread-self/children: the process tree "
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
        Support::Enforced,
        "the machine's own network, unfiltered (dedicated, ephemeral machine only)"};
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
    return makeError(ErrorCode::SandboxBackendUnavailable,
                     "direct-dedicated: " + report.unavailableReason, {}, "direct-dedicated");
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
