// One step's process tree, followed by looking at the process table
// (process_table.h) and at the tree's mark in each new process's environment
// (tree_mark.h) while it runs, and killed as a whole when it ends: the POSIX
// launcher's cleanup, with no subreaper, pid namespace or cgroup.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>

#include "sandbox/process/posix/process_table.h"
#include "sandbox/process/posix/tree_events.h"

namespace lw::sandbox::process::posix {

class TreeCleanup {
 public:
  // `leader`: the step's first process, the leader of its own session and
  // group; `token`: the mark the step was started with (tree_mark.h).
  TreeCleanup(pid_t leader, std::string token) : token_(std::move(token)) { marks_.leader = leader; }

  // Looks at the table once and remembers every member, asking `events` to
  // report their forks and exits.
  void observe(TreeEvents& events);

  // SIGKILLs every member, by group and by pid, and looks again until the
  // table shows none (bounded: kKillRounds). Returns how many processes other
  // than the leader were killed.
  int killAll();

 private:
  // The process table, each process not yet known to be in the tree or out
  // of it marked by reading its environment once.
  std::vector<ProcessEntry> lookAtTable();
  void remember(const std::vector<ProcessEntry>& members);

  TreeMarks marks_;
  std::string token_;
  // Processes whose environment was read and holds no mark, with their start
  // times: a pid is read again only once it holds another process.
  std::map<pid_t, std::uint64_t> unmarked_;
};

}  // namespace lw::sandbox::process::posix
