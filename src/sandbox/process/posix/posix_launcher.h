// The POSIX launcher: what spawn.h promises, on any POSIX system, without a
// subreaper, a pid namespace or a cgroup (macOS has none of them; on Linux
// the same code runs in the portable build, so that CI exercises it).
//
// The step is started with posix_spawn in a new session (so in its own
// process group), with the signal mask and dispositions reset, exactly the
// environment asked for plus the tree's mark (LOOPWRIGHT_TREE, tree_mark.h),
// and only the descriptors it is given (0-2, 3 for passFd, 4… for extraFds:
// POSIX_SPAWN_CLOEXEC_DEFAULT on macOS, a closefrom file action on Linux). A
// watcher thread follows its tree in the process table (tree_cleanup.h),
// waits for its end, and kills what is left.
//
// What it cannot do, and says so: run ChildSetup or supervisorSetup steps
// (posix_spawn runs no code of ours in the child; a request with any fails
// with SANDBOX_LAUNCH_FAILED), set no-new-privileges (Linux only), or end the
// tree when loopwright itself is killed (no supervisor outlives it).
#pragma once

#include <memory>

#include "core/result.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::process::posix {

// Fails with SANDBOX_LAUNCH_FAILED when the request needs what this launcher
// cannot do (above), when no candidate of argv[0] (executable.h) can be
// executed, or when posix_spawn fails otherwise.
Result<std::unique_ptr<RunningProcess>> spawnPosix(const SpawnRequest& request);

}  // namespace lw::sandbox::process::posix
