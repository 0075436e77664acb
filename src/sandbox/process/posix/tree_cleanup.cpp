#include "sandbox/process/posix/tree_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <set>
#include <thread>

namespace lw::sandbox::process::posix {
namespace {

// A killed process leaves the table once the kernel has torn it down (a few
// ms); a member that forks as it is killed shows up in the next round. 2000
// rounds of 1 ms bound a tree that keeps forking faster than it is killed.
constexpr int kKillRounds = 2000;

}  // namespace

void TreeCleanup::remember(const std::vector<ProcessEntry>& members) {
  for (const ProcessEntry& e : members) marks_.seen[e.pid] = e.started;
}

void TreeCleanup::observe(TreeEvents& events) {
  const auto members = treeMembers(readProcessTable(), marks_, ::getpid());
  for (const ProcessEntry& e : members)
    if (marks_.seen.count(e.pid) == 0) events.watch(e.pid);
  remember(members);
}

int TreeCleanup::killAll() {
  const pid_t ownGroup = ::getpgrp();
  std::set<pid_t> killed;
  for (int round = 0; round < kKillRounds; ++round) {
    const auto members = treeMembers(readProcessTable(), marks_, ::getpid());
    if (members.empty()) break;
    remember(members);
    std::set<pid_t> groups;
    for (const ProcessEntry& e : members) {
      if (e.pgid > 1 && e.pgid != ownGroup) groups.insert(e.pgid);
      ::kill(e.pid, SIGKILL);
      if (e.pid != marks_.leader) killed.insert(e.pid);
    }
    // A group also reaches a member forked since the table was read.
    for (pid_t g : groups) ::kill(-g, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return static_cast<int>(killed.size());
}

}  // namespace lw::sandbox::process::posix
