// The floor of a step's resource limits: the cgroups loopwright's plan makes
// for one step on this host (limits_plan.h, from the same observed facts),
// created, written and removed with plain system calls around a bare exec
// whose child joins them — what the kernel's cgroup work costs a start,
// without anything of loopwright's own.
#pragma once

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

#include "sandbox/limits/limits_host.h"
#include "sandbox/limits/limits_plan.h"

namespace lw::bench {

struct RawCgroups {
  std::vector<sandbox::limits::CgroupDir> dirs;  // empty: no cgroup on this host for this user
};

// The plan of a step with the default limits, named "bench-<pid>".
inline RawCgroups planRawCgroups() {
  namespace limits = sandbox::limits;
  limits::Plan plan = limits::planLimits(ResourceLimits{}, limits::observedHostLimitFacts(),
                                         "bench-" + std::to_string(::getpid()), {"", ""});
  return {plan.cgroups};
}

// Closes the descriptors and removes the cgroups. One whose last process
// is still exiting (bwrap's pid 1 tearing its namespaces down) refuses rmdir
// for a moment: asked again at once, so that the floor counts no sleep.
inline void removeRawCgroups(const RawCgroups& c, std::vector<int>& procs) {
  for (int fd : procs) ::close(fd);
  procs.clear();
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (auto it = c.dirs.rbegin(); it != c.dirs.rend(); ++it)
    while (::rmdir(it->path.c_str()) != 0 && errno == EBUSY && std::chrono::steady_clock::now() < giveUp)
      ::sched_yield();
}

inline bool writeValue(const std::string& path, const std::string& value) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool written = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
  ::close(fd);
  return written;
}

// Creates and writes the cgroups; their cgroup.procs descriptors, for the
// child to join, or false (nothing left behind) when the kernel refused one.
inline bool makeRawCgroups(const RawCgroups& c, std::vector<int>& procs) {
  for (const auto& d : c.dirs) {
    bool ok = ::mkdir(d.path.c_str(), 0755) == 0;
    for (const auto& w : d.writes) ok = ok && writeValue(d.path + "/" + w.file, w.value);
    int fd = ok ? ::open((d.path + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC) : -1;
    if (fd < 0) {
      ::rmdir(d.path.c_str());
      removeRawCgroups(c, procs);
      return false;
    }
    procs.push_back(fd);
  }
  return true;
}

}  // namespace lw::bench
