// What wakes the POSIX launcher's watcher between two looks at the process
// table: a fork or an exit of a process it watches (kqueue EVFILT_PROC on
// macOS), a wake from another thread, or the interval running out (the only
// one elsewhere: Linux tells an unprivileged process of no fork).
#pragma once

#include <sys/types.h>

#include <chrono>

#include "core/unique_fd.h"

namespace lw::sandbox::process::posix {

class TreeEvents {
 public:
  TreeEvents();
  ~TreeEvents();
  TreeEvents(const TreeEvents&) = delete;
  TreeEvents& operator=(const TreeEvents&) = delete;

  // Be woken when `pid` forks or exits, where the system can say so; a pid
  // that is gone already is ignored. Cheap to repeat for a watched pid.
  void watch(pid_t pid);
  // Ends a wait now (any thread).
  void wake();
  // Returns at the first event, wake or after `timeout`.
  void waitFor(std::chrono::milliseconds timeout);
  // Whether forks are reported (kqueue), or only the interval wakes.
  static bool reportsForks();

 private:
  UniqueFd wakeRead_;
  UniqueFd wakeWrite_;
  UniqueFd queue_;  // kqueue on macOS, unused elsewhere
};

}  // namespace lw::sandbox::process::posix
