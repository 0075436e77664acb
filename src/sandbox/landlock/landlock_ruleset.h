// Applying a Landlock Plan in the child between fork and exec. Everything
// that allocates happens in the constructor (parent); apply() only makes
// system calls on prepared data, so it is async-signal-safe.
#pragma once

#include <memory>

#include "sandbox/landlock/landlock_plan.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::landlock {

class PreparedRuleset {
 public:
  explicit PreparedRuleset(Plan plan) : plan_(std::move(plan)) {}

  // Sets no-new-privileges, builds the ruleset (missing optional paths are
  // skipped, missing required ones fail), and restricts the calling process,
  // irreversibly. Returns 0 or an errno.
  int apply() const noexcept;

  const Plan& plan() const { return plan_; }

 private:
  Plan plan_;
};

// The ChildSetup running apply(); `ruleset` is kept alive by the closure.
process::ChildSetup restrictWithLandlock(std::shared_ptr<const PreparedRuleset> ruleset);

}  // namespace lw::sandbox::landlock
