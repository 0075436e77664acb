// The process table as data, and which of its processes belong to one
// step's tree: what the POSIX launcher (posix_launcher.h) cleans up with,
// where there is neither a subreaper nor a pid namespace nor a cgroup to ask.
//
// The tree's marks survive what a daemon does to hide: a process that calls
// setsid leaves its parent's session and group, and when that parent dies it
// is re-parented to init, so neither its parent nor its session points back
// to the step. What stays true is that every session and process group a
// tree process holds was created by a tree process (nobody can join a
// session they did not create, nor a group of another session), that a
// child of a tree process is a tree process, and that what a tree process
// inherited (the tree's mark in its environment, tree_mark.h) it keeps
// unless it drops it. So a process is in the tree if it carries the mark, if
// it was seen in it before, if its parent is, or if its session or group is
// that of a tree process or the id of a tree process seen before. The mark
// needs no look at the right moment: a daemon whose middle process forked,
// called setsid and exited between two looks is still found by it. Only a
// process that drops the mark and whose every other link was made and
// broken between two looks escapes (docs/security-model.md).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace lw::sandbox::process::posix {

// One process as the table shows it. `started` tells a pid's holders apart
// across pid reuse (Linux: clock ticks since boot; macOS: microseconds).
struct ProcessEntry {
  pid_t pid = 0;
  pid_t ppid = 0;
  pid_t pgid = 0;
  pid_t sid = 0;
  std::uint64_t started = 0;
  bool zombie = false;        // dead, not yet reaped: nothing left to kill
  bool kernelThread = false;  // Linux's PF_KTHREAD: no environment, never a step's
  bool marked = false;        // carries the tree's mark (tree_mark.h): set by the caller
};

// The tree's memory between observations: every process seen in it, by pid,
// with its start time; and the step's leader (its session and group id).
struct TreeMarks {
  pid_t leader = 0;
  std::map<pid_t, std::uint64_t> seen;
};

// Pure: the live processes of `table` that belong to the tree `marks`
// describes (rules above), in table order. `self` (the caller) and pid 1 are
// never members, whatever the table says.
std::vector<ProcessEntry> treeMembers(const std::vector<ProcessEntry>& table, const TreeMarks& marks, pid_t self);

// Pure: one entry from the text of Linux's /proc/<pid>/stat (comm may hold
// spaces and parentheses); nullopt when the text is not of that shape.
std::optional<ProcessEntry> parseProcStat(std::string_view stat);

// The table of every process this host lets us see: /proc on Linux, the
// kern.proc sysctl on macOS. Empty when it cannot be read.
std::vector<ProcessEntry> readProcessTable();

}  // namespace lw::sandbox::process::posix
