// Starting a program the way posix_spawn does — clone(CLONE_VM | CLONE_VFORK)
// on a stack of its own, so no page of this (large, multi-threaded) process
// is copied — but with loopwright's ChildSetup steps between the fork and the
// exec, which posix_spawn cannot run (a cgroup to join, rlimits to set before
// bubblewrap starts forking). Everything the child touches is prepared here.
#pragma once

#include <sys/types.h>

#include <utility>
#include <vector>

#include "sandbox/process/spawn.h"

namespace lw::sandbox::process {

struct VforkPlan {
  const char* path = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  // (source, target) descriptors; sources must all be above every target.
  std::vector<std::pair<int, int>> layout;
  int firstUnused = 3;        // everything from here is close-on-exec in the child
  bool closeThree = false;    // fd 3 closed (no bridge, extra fds from 4)
  const char* cwd = nullptr;  // nullptr: inherit
  // Run in the child in order; they share this process's memory until the
  // exec, so they may only make system calls (no allocation, no locks).
  const std::vector<ChildSetup>* setups = nullptr;
};

struct VforkFailure {
  int step = -1;  // index of the failed setup, or -1 (descriptors, session, cwd, exec)
  int err = 0;
  const char* what = nullptr;  // for step -1
};

// Starts the child in a new session with default signal dispositions and an
// empty mask. Returns its pid once it has exec'd; on a failure before or at
// the exec, the child is reaped and `failure` says where (pid -1).
pid_t vforkExec(const VforkPlan& plan, VforkFailure& failure);

}  // namespace lw::sandbox::process
