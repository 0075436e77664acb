#include "sandbox/process/posix/tree_cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <set>
#include <thread>

#include "sandbox/process/posix/tree_mark.h"

namespace lw::sandbox::process::posix {
namespace {

// A killed process leaves the table once the kernel has torn it down (a few
// ms); a member that forks as it is killed shows up in the next round. 2000
// rounds of 1 ms bound a tree that keeps forking faster than it is killed.
constexpr int kKillRounds = 2000;

bool isKnown(const std::map<pid_t, std::uint64_t>& known, const ProcessEntry& e) {
  auto it = known.find(e.pid);
  return it != known.end() && it->second == e.started;
}

}  // namespace

std::vector<ProcessEntry> TreeCleanup::lookAtTable() {
  std::vector<ProcessEntry> table = readProcessTable();
  std::map<pid_t, std::uint64_t> unmarked;
  const pid_t self = ::getpid();
  for (ProcessEntry& e : table) {
    // A zombie's environment is gone, and it needs no killing; a kernel
    // thread has none.
    if (e.zombie || e.kernelThread || e.pid == self || e.pid == 1 || isKnown(marks_.seen, e)) continue;
    if (isKnown(unmarked_, e)) {
      unmarked[e.pid] = e.started;
      continue;
    }
    const auto block = readEnvironOf(e.pid);
    e.marked = block && environCarriesToken(*block, token_);
    // An empty environment is read again at the next look: a process in the
    // middle of execve shows none (Linux sets mm->env_start only once the
    // new image is mapped), and the mark appears once the exec is done.
    if (!e.marked && !(block && block->empty())) unmarked[e.pid] = e.started;
  }
  unmarked_ = std::move(unmarked);
  return table;
}

void TreeCleanup::remember(const std::vector<ProcessEntry>& members) {
  for (const ProcessEntry& e : members) marks_.seen[e.pid] = e.started;
}

void TreeCleanup::observe(TreeEvents& events) {
  const auto members = treeMembers(lookAtTable(), marks_, ::getpid());
  for (const ProcessEntry& e : members)
    if (marks_.seen.count(e.pid) == 0) events.watch(e.pid);
  remember(members);
}

int TreeCleanup::killAll() {
  const pid_t ownGroup = ::getpgrp();
  std::set<pid_t> killed;
  for (int round = 0; round < kKillRounds; ++round) {
    const auto members = treeMembers(lookAtTable(), marks_, ::getpid());
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
