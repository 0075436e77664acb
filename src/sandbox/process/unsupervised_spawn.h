// Starting a launcher that cleans up its own process tree through the kernel,
// without the per-step supervisor of spawn(): bubblewrap runs the step in a
// pid namespace that dies with its first process, and with --die-with-parent
// it (and so the namespace) is SIGKILLed when the thread that started it
// dies. No subreaper is involved here; that cleanup is the launcher's.
#pragma once

#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

// Starts `request` as a direct child with vforkExec (vfork semantics: no
// copy of this process's memory, which is what makes it cheap from a large
// multi-threaded orchestrator): a new session, default signal dispositions
// and an empty mask, exactly the environment given, fds 0-2 the null device
// and two capture pipes, passFd at 3 and extraFds from 4, every other fd
// closed at exec. Its ChildSetup steps run in the child before the exec and
// share this process's memory until then: system calls only (the limits'
// cgroup join and rlimits). The RunningProcess kills the launcher's pid on
// kill() or at the deadline and reports no descendantsKilled (the kernel
// kills the rest; it is not counted). SANDBOX_LAUNCH_FAILED when the command
// is not found, a setup step fails or it cannot be started. The launcher
// must not outlive the calling thread unattended: call wait() or kill() from
// the same thread.
Result<std::unique_ptr<RunningProcess>> spawnSelfCleaningLauncher(const SpawnRequest& request);

}  // namespace lw::sandbox::process
