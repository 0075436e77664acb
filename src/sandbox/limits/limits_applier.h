// The effects of a limits plan (limits_plan.h): the step's cgroups are
// created and written before the step is forked, joined by the step itself
// before exec (so nothing it starts is ever outside them), and emptied and
// removed once it is over; the rlimits are set in the step before exec.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "sandbox/limits/limits_plan.h"
#include "sandbox/process/background_removal.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::limits {

class AppliedLimits {
 public:
  // Creates and writes the plan's cgroups and opens their cgroup.procs.
  // Fails with SANDBOX_LAUNCH_FAILED naming the file the kernel refused
  // (whatever was created is removed again).
  static Result<std::shared_ptr<AppliedLimits>> prepare(const Plan& plan);
  ~AppliedLimits();
  AppliedLimits(const AppliedLimits&) = delete;
  AppliedLimits& operator=(const AppliedLimits&) = delete;

  // ChildSetup steps, to run first in the step's child: join the cgroups,
  // then set the rlimits. Async-signal-safe; they keep `self` alive.
  static std::vector<process::ChildSetup> childSetups(const std::shared_ptr<AppliedLimits>& self);

  // Kills whatever is still in the step's cgroups (cgroup.kill where the
  // kernel has it, else SIGKILL to each listed process until none is left)
  // and removes them. Idempotent; irreversible.
  void release();
  // release() with the removal of the emptied cgroups (rmdir, which waits
  // while the last process is being reaped) queued on `removal`: every
  // process is gone when it returns, only empty directories are left.
  void releaseRemovingLater(BackgroundRemoval& removal);

 private:
  AppliedLimits() = default;
  int joinNow() const;
  int setRlimitsNow() const;

  std::vector<CgroupDir> cgroups_;  // created, deepest last
  std::vector<int> procsFds_;       // their cgroup.procs, open for writing
  std::vector<RlimitSetting> rlimits_;
  bool released_ = false;
};

// The plan for `l` on this host (observedHostLimitFacts) with the scratch
// `scratch`, prepared, its ChildSetups put first in `req`. Fails as prepare.
Result<std::shared_ptr<AppliedLimits>> limitStep(const ResourceLimits& l, const Scratch& scratch,
                                                 process::SpawnRequest& req);

// What a backend without a private tmpfs says about tmpSize.
inline constexpr std::string_view kNoPrivateTmp =
    "this backend gives the step no private /tmp: what it may write is bounded per file by fileSize";

// `inner`, releasing `limits` after wait() or kill() returns, or when it is
// dropped (the inner process is gone first in every case); with `removal`,
// the emptied cgroups are removed on it (releaseRemovingLater).
std::unique_ptr<process::RunningProcess> releasingLimitsAfter(std::unique_ptr<process::RunningProcess> inner,
                                                              std::shared_ptr<AppliedLimits> limits,
                                                              std::shared_ptr<BackgroundRemoval> removal = nullptr);

}  // namespace lw::sandbox::limits
