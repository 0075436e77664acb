// Observing what this host allows for a step's limits: which cgroup
// directory loopwright may create step cgroups in (v2 delegated subtree, or
// the v1 pids/memory hierarchies of a hybrid host), once per process, and
// the current hard rlimits.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/limits/limits_plan.h"

namespace lw::sandbox::limits {

// Where this process's cgroups are, from /proc/self/cgroup and
// /proc/self/mountinfo (pure: the texts are parameters).
struct CgroupPaths {
  std::string v2Dir;        // this process's cgroup v2 directory, or empty
  std::string v1PidsDir;    // its directory in the v1 pids hierarchy, or empty
  std::string v1MemoryDir;  // its directory in the v1 memory hierarchy, or empty
};
CgroupPaths cgroupPathsFrom(std::string_view procSelfCgroup, std::string_view mountinfo);

// What file system a directory is on, for the usual layout below.
enum class CgroupFs { NotCgroup, V1, V2 };
using CgroupFsLookup = std::function<CgroupFs(const std::string& dir)>;

// The same directories found without mountinfo, on the usual layout: cgroup2
// at /sys/fs/cgroup (or /sys/fs/cgroup/unified on a hybrid host), each v1
// controller at /sys/fs/cgroup/<controller>, our paths appended. Reading
// mountinfo costs every start about 60 µs; a statfs of each directory a few.
// nullopt when any of our cgroups is not found so (another layout, or a
// mount that shows a subtree, where the appended path does not exist).
std::optional<CgroupPaths> conventionalCgroupPaths(std::string_view procSelfCgroup, const CgroupFsLookup& fsAt);

// The facts, observed once and cached: each candidate directory is used only
// if the kernel's permission check lets this process create a child in it
// (a mkdir that fails all the same fails the launch, closed).
const HostLimitFacts& observedHostLimitFacts();

// The pid of the loopwright that made a step cgroup, from its name:
// "loopwright-<pid>-<n>", or "loopwright-lw-<pid>-<n>" for a gVisor step's
// (named after its container); nullopt for any other name.
std::optional<long> stepCgroupOwner(std::string_view name);

// Removes the empty step cgroups that a loopwright killed before it could
// remove them left behind (their owner's pid is gone) and returns them.
// The job-completed hook calls it (host/job_cleanup.h).
std::vector<std::string> removeStaleStepCgroupsNow();

// removeStaleStepCgroupsNow, once per process. Called while a step runs,
// not before it starts.
void sweepStaleStepCgroups();

}  // namespace lw::sandbox::limits
