// The per-step supervisor: a forked child that makes itself a child
// subreaper, forks and execs the step, and on the step's exit (or on a kill
// request, or when the orchestrator's end of the control socket closes
// because the orchestrator died) kills and reaps every process left in its
// subtree. It runs between fork and exec, so everything here is
// async-signal-safe: no allocation, no locks, only system calls on data
// prepared by the parent.
//
// Why not Boost.Process v2's default_launcher: its child side reports the
// current errno rather than the error an on_exec_setup hook returned and
// cannot say which hook failed, it calls ::exit() (running the parent's
// atexit handlers and flushing duplicated stdio buffers) on failure, and it
// has no notion of a supervising subreaper, which per-step tree cleanup needs
// when steps run in parallel in one orchestrator.
#pragma once

#include <cstddef>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::process::detail {

// Messages on the control socket (SOCK_SEQPACKET, one struct per message).
enum MessageKind : int { kStarted = 1, kForkFailed = 2, kFinished = 3 };
struct SupervisorMessage {
  int kind = 0;
  int value = 0;  // kStarted: pid; kForkFailed: errno; kFinished: wait status
  int extra = 0;  // kFinished: descendants killed; kForkFailed: 1 + the failed
                  // supervisor setup's index, 0 for the fork itself; kStarted:
                  // 1 when the supervisor is no subreaper and the step's orphans
                  // re-parent to the caller (the pid namespace's init), which
                  // must sweep them after kFinished
};

// Written by the step's child on the error pipe when it cannot exec.
// `step` is the index of the failing ChildSetup, or one of the kStep* values;
// `candidate` the command candidate execve failed on (kStepExec).
struct ChildFailure {
  int step = 0;
  int err = 0;
  int candidate = -1;
};
inline constexpr int kStepDescriptors = -1;
inline constexpr int kStepSession = -2;
inline constexpr int kStepNoNewPrivileges = -3;
inline constexpr int kStepWorkdir = -4;
inline constexpr int kStepExec = -5;
inline constexpr int kStepDeathSignal = -6;
// No candidate could be executed; err is EACCES if one was refused, else ENOENT.
inline constexpr int kStepCommandNotFound = -7;
inline constexpr std::size_t kMaxExtraFds = 4;

// Everything the child needs, prepared (allocated) by the parent before fork.
struct ExecPlan {
  // commandCandidates() of argv[0], tried in order with execve in the step's
  // view; the search goes on where execvp's would (executable.h).
  const char* const* candidates = nullptr;
  std::size_t candidateCount = 0;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* cwd = nullptr;  // null: inherit
  const ChildSetup* setups = nullptr;
  std::size_t setupCount = 0;
  const ChildSetup* supervisorSetups = nullptr;  // run before the step is forked
  std::size_t supervisorSetupCount = 0;
  bool stepIsInit = false;  // pid 1 of a new pid namespace: its parent reads as 0
  int stdinFd = -1;
  int stdoutFd = -1;
  int stderrFd = -1;
  int passFd = -1;                // becomes fd 3 when >= 0
  const int* extraFds = nullptr;  // become fd 4, 5, …
  std::size_t extraCount = 0;     // at most kMaxExtraFds
  int errorPipe = -1;             // write end, CLOEXEC
  int control = -1;               // supervisor's end of the control socket
};

// Never returns. Call only in a freshly forked child.
[[noreturn]] void runSupervisor(const ExecPlan& plan);

// Human words for a kStep* value ("execve", "setsid").
const char* stepName(int step);

}  // namespace lw::sandbox::process::detail
