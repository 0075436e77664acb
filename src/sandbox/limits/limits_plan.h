// The pure half of a step's resource limits: ResourceLimits + what this
// host allows (limits_host.h) -> the cgroups to create and the rlimits to
// set in the step before exec, and which mechanism enforces each limit, for
// the report. A cgroup bounds the step's whole tree and binds root; rlimits
// are what is left without one (each counts per process, or per user).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "policy/model/resource_limits.h"

namespace lw::sandbox::limits {

// What this host lets loopwright do, observed once (limits_host.h).
struct HostLimitFacts {
  bool root = false;  // euid 0: RLIMIT_NPROC does not bind uid 0
  // A cgroup v2 directory whose subtree_control enables pids and memory and
  // in which this process can create a child; empty when there is none.
  std::string v2Parent;
  bool v2SwapFile = false;  // memory.swap.max exists (swap accounting on)
  // cgroup v1 directories (this process's own cgroup in the pids and memory
  // hierarchies) in which it can create a child; empty when not.
  std::string v1PidsParent;
  std::string v1MemoryParent;
  bool v1MemswFile = false;    // memory.memsw.limit_in_bytes exists (swap accounting on)
  std::string noCgroupReason;  // why no cgroup is used, in the report's words
  // The current hard limits by RLIMIT_* number: an unprivileged process
  // cannot raise them, so a lower one is kept (and is stricter anyway).
  std::map<int, std::uint64_t> hardLimits;
};

struct CgroupWrite {
  std::string file;  // relative to the cgroup's directory
  std::string value;
};

// One cgroup created for the step: written, joined by the step before exec,
// emptied and removed after it.
struct CgroupDir {
  std::string path;
  std::vector<CgroupWrite> writes;  // in order (memsw after memory.limit_in_bytes)
  bool v2 = false;                  // has cgroup.kill (Linux 5.14+) when v2
};

struct RlimitSetting {
  int resource = 0;         // RLIMIT_*
  std::uint64_t value = 0;  // soft and hard
  bool operator==(const RlimitSetting&) const = default;
};

// How one limit is held, for the run record and `sandbox exec --report`.
struct Enforcement {
  ResourceLimit limit = ResourceLimit::Pids;
  std::optional<std::int64_t> value;  // unset: no limit asked (cpuSeconds)
  bool enforced = false;
  std::string mechanism;  // "cgroup v1 pids.max", "RLIMIT_FSIZE", "not enforced"
  std::string note;       // what it does not cover, or why it is not enforced
};

struct Plan {
  std::vector<CgroupDir> cgroups;
  std::vector<RlimitSetting> rlimits;
  std::vector<Enforcement> enforcement;  // one per ResourceLimit, in kAllResourceLimits order
};

// How the backend bounds the step's scratch space (`tmpSize`): empty when it
// gives the step no private tmpfs, else how ("bwrap --size on /tmp").
struct Scratch {
  std::string tmpfsMechanism;
  std::string noTmpfsNote;  // said when tmpfsMechanism is empty
};

// The plan for one step launched by a process of ours (not a container).
// `leaf` names its cgroups (unique among concurrent steps of this host).
Plan planLimits(const ResourceLimits& limits, const HostLimitFacts& host, const std::string& leaf,
                const Scratch& scratch);

}  // namespace lw::sandbox::limits
