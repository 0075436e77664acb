#include "sandbox/process/orphan_sweep.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace lw::sandbox::process {
namespace {

std::shared_mutex& guardMutex() {
  static std::shared_mutex m;
  return m;
}

// pid -> how many times registered (a reaped pid can be reused and registered
// again before the first owner forgets it).
std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}
std::map<pid_t, int>& registry() {
  static std::map<pid_t, int> r;
  return r;
}

bool isRegistered(pid_t pid) {
  std::lock_guard lock(registryMutex());
  return registry().count(pid) > 0;
}

// The fields of /proc/<pid>/stat loopwright reads; nullopt when it is gone.
struct StatLine {
  char state = 0;
  long ppid = 0;
  long session = 0;
};
std::optional<StatLine> statOf(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  // "pid (comm) S ppid pgrp session …": comm may hold ')', so take the last.
  auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(line.substr(close + 1));
  StatLine l;
  long pgrp = 0;
  rest >> l.state >> l.ppid >> pgrp >> l.session;
  return l;
}

// Where the kernel has no children lists (gVisor): every process whose
// parent is this one, from /proc.
std::vector<pid_t> childrenByParent() {
  std::vector<pid_t> out;
  const pid_t self = ::getpid();
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return out;
  while (dirent* e = ::readdir(proc)) {
    const std::string name = e->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    auto stat = statOf(name);
    if (stat && stat->ppid == self) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  ::closedir(proc);
  return out;
}

// Children of every thread: an orphan goes to one thread of the subreaper,
// a child to the thread that forked it.
std::vector<pid_t> children() {
  std::vector<pid_t> out;
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return childrenByParent();
  bool listed = false;
  while (dirent* e = ::readdir(tasks)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream in(std::string("/proc/self/task/") + e->d_name + "/children");
    listed = listed || in.is_open();
    for (pid_t pid = 0; in >> pid;) out.push_back(pid);
  }
  ::closedir(tasks);
  return listed ? out : childrenByParent();
}

// Session, state and no-new-privileges of `pid`; nullopt when it is gone.
struct ProcState {
  ChildFacts facts;
  bool zombie = false;
};
std::optional<ProcState> stateOf(pid_t pid) {
  const std::string base = "/proc/" + std::to_string(pid);
  auto stat = statOf(std::to_string(pid));
  if (!stat) return std::nullopt;
  ProcState s;
  s.facts.pid = pid;
  s.facts.session = static_cast<pid_t>(stat->session);
  s.zombie = stat->state == 'Z' || stat->state == 'X';
  // gVisor's status has no NoNewPrivs line: there the whole sandbox runs
  // with it (its OCI spec sets noNewPrivileges), so a process it shows does too.
  std::ifstream status(base + "/status");
  s.facts.noNewPrivileges = true;
  for (std::string l; std::getline(status, l);) {
    if (l.rfind("NoNewPrivs:", 0) == 0) s.facts.noNewPrivileges = l.find('1') != std::string::npos;
  }
  return s;
}

void reap(pid_t pid) {
  while (::waitpid(pid, nullptr, __WALL) < 0 && errno == EINTR) {}
}

}  // namespace

bool isStrayStepProcess(const ChildFacts& child, pid_t ownSession) {
  return !child.registered && child.session != ownSession && child.noNewPrivileges;
}

bool becomeSubreaperOfLastResort() {
  // Every time, not once per process: a forked copy of this process is not a
  // subreaper, whatever a flag copied with its memory says.
  return ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
}

std::shared_lock<std::shared_mutex> ownChildGuard() { return std::shared_lock<std::shared_mutex>(guardMutex()); }

void registerOwnChild(pid_t pid) {
  std::lock_guard lock(registryMutex());
  ++registry()[pid];
}

void forgetOwnChild(pid_t pid) {
  std::lock_guard lock(registryMutex());
  auto it = registry().find(pid);
  if (it != registry().end() && --it->second == 0) registry().erase(it);
}

int sweepStrayStepProcesses() {
  std::unique_lock guard(guardMutex());
  const pid_t ownSession = ::getsid(0);
  int killed = 0;
  for (;;) {
    std::vector<pid_t> strays;
    for (pid_t pid : children()) {
      auto s = stateOf(pid);
      if (!s) continue;
      s->facts.registered = isRegistered(pid);
      if (!isStrayStepProcess(s->facts, ownSession)) continue;
      // Our child and not reaped: the pid cannot have been reused.
      if (!s->zombie) {
        ::kill(pid, SIGKILL);
        ++killed;
      }
      strays.push_back(pid);
    }
    if (strays.empty()) return killed;
    for (pid_t pid : strays) reap(pid);
  }
}

}  // namespace lw::sandbox::process
