// The step's private mount view under Landlock, set up by the init of its
// pid namespace before the ruleset: a fresh /proc (host processes are not
// listed, their cmdline not readable), and every mount read-only but the
// writable trees. Landlock governs contents, not metadata: only a read-only
// mount stops chmod, chown, utime and xattr changes of host files the step's
// uid owns (every file, as root). Prepared in the parent; apply() only makes
// system calls on prepared data, so it is async-signal-safe.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::landlock {

class PreparedView {
 public:
  // At most this many writable trees (the planner refuses more).
  static constexpr std::size_t kMaxWritableTrees = 32;

  // `writableTrees`: canonical paths re-attached read-write, none inside
  // another; `workdir`: entered again once the mounts are in place. Records
  // the caller's mount namespace, which apply() refuses to change.
  PreparedView(std::vector<std::string> writableTrees, std::string workdir);

  // In a new mount namespace (a pid namespace's init for the fresh /proc):
  // makes every mount private, mounts /proc, remounts everything read-only
  // but the writable trees, and re-enters the workdir. Returns 0 or an errno;
  // EPERM without touching anything when still in the caller's namespace.
  int apply() const noexcept;

 private:
  std::vector<std::string> writable_;
  std::string workdir_;
  ino_t callerMountNamespace_ = 0;
};

// The ChildSetup running apply() (in the step, the init of its pid namespace).
process::ChildSetup enterPrivateView(std::shared_ptr<const PreparedView> view);

}  // namespace lw::sandbox::landlock
