// One step's process tree, followed by looking at the process table
// (process_table.h) while it runs and killed as a whole when it ends: the
// POSIX launcher's cleanup, with no subreaper, pid namespace or cgroup.
#pragma once

#include <sys/types.h>

#include "sandbox/process/posix/process_table.h"
#include "sandbox/process/posix/tree_events.h"

namespace lw::sandbox::process::posix {

class TreeCleanup {
 public:
  // `leader`: the step's first process, the leader of its own session and group.
  explicit TreeCleanup(pid_t leader) { marks_.leader = leader; }

  // Looks at the table once and remembers every member, asking `events` to
  // report their forks and exits.
  void observe(TreeEvents& events);

  // SIGKILLs every member, by group and by pid, and looks again until the
  // table shows none (bounded: kKillRounds). Returns how many processes other
  // than the leader were killed.
  int killAll();

 private:
  void remember(const std::vector<ProcessEntry>& members);

  TreeMarks marks_;
};

}  // namespace lw::sandbox::process::posix
