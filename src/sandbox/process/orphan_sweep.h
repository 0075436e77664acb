// The last line of a step's tree cleanup. The per-step supervisor is a
// child subreaper, but the step can kill or stop it (same uid, no pid
// namespace on direct-dedicated): its orphans then re-parent to the nearest
// live subreaper above it, which spawn() makes loopwright itself, and are
// swept here. loopwright's own children (supervisors, launchers, watchdogs,
// probes) are never touched: see isStrayStepProcess.
#pragma once

#include <sys/types.h>

#include <mutex>
#include <shared_mutex>

namespace lw::sandbox::process {

// One child of this process, as /proc shows it.
struct ChildFacts {
  pid_t pid = 0;
  pid_t session = 0;
  bool noNewPrivileges = false;
  bool registered = false;  // started by loopwright (registerOwnChild)
};

// True for a process that can only have come from a step's tree: not a child
// loopwright started, in a session other than loopwright's (every step starts
// with setsid, and no process can join a session it did not create), and with
// no-new-privileges (set on every step before exec and never cleared;
// loopwright's helpers do not set it). Each test alone would do today; all
// three must hold, so that a helper forked without registering still lives.
bool isStrayStepProcess(const ChildFacts& child, pid_t ownSession);

// Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER); irreversible,
// and cheap to repeat. Orphans of anything below then come here, not to init.
// False when the kernel refuses it.
bool becomeSubreaperOfLastResort();

// Held shared by a thread from just before it forks a child it owns until the
// child is registered; a sweep holds it exclusively, so it never sees an owned
// child that is not registered yet.
std::shared_lock<std::shared_mutex> ownChildGuard();
void registerOwnChild(pid_t pid);
// Called once the child is reaped (its pid may then be reused).
void forgetOwnChild(pid_t pid);

// Kills (SIGKILL) and reaps every stray step process among this process's
// children, again until none is left (a killed process's own children
// re-parent here as it dies). Returns how many were still running.
int sweepStrayStepProcesses();

}  // namespace lw::sandbox::process
