#include "sandbox/limits/limits_plan.h"

#include <sys/resource.h>

#include <algorithm>

namespace lw::sandbox::limits {
namespace {

std::uint64_t clampToHard(const HostLimitFacts& host, int resource, std::int64_t value) {
  auto v = static_cast<std::uint64_t>(value);
  auto it = host.hardLimits.find(resource);
  return it == host.hardLimits.end() ? v : std::min(v, it->second);
}

void addRlimit(Plan& plan, const HostLimitFacts& host, int resource, std::int64_t value) {
  plan.rlimits.push_back({resource, clampToHard(host, resource, value)});
}

// The cgroups: v2 when a delegated subtree enables both controllers, else
// the v1 hierarchies this process can write (hybrid hosts), else none.
void planCgroups(const ResourceLimits& l, const HostLimitFacts& host, const std::string& leaf, Plan& plan,
                 bool& pidsByCgroup, bool& memoryByCgroup) {
  const std::string name = "loopwright-" + leaf;
  const std::string memory = std::to_string(l.memoryBytes);
  if (!host.v2Parent.empty()) {
    CgroupDir d{host.v2Parent + "/" + name, {{"pids.max", std::to_string(l.pids)}, {"memory.max", memory}}, true};
    if (host.v2SwapFile) d.writes.push_back({"memory.swap.max", "0"});
    plan.cgroups.push_back(std::move(d));
    pidsByCgroup = memoryByCgroup = true;
    return;
  }
  if (!host.v1PidsParent.empty()) {
    plan.cgroups.push_back({host.v1PidsParent + "/" + name, {{"pids.max", std::to_string(l.pids)}}, false});
    pidsByCgroup = true;
  }
  if (!host.v1MemoryParent.empty()) {
    CgroupDir d{host.v1MemoryParent + "/" + name, {{"memory.limit_in_bytes", memory}}, false};
    // memsw is memory + swap, and may not be set below memory.limit_in_bytes.
    if (host.v1MemswFile) d.writes.push_back({"memory.memsw.limit_in_bytes", memory});
    plan.cgroups.push_back(std::move(d));
    memoryByCgroup = true;
  }
}

Enforcement pidsEnforcement(const ResourceLimits& l, const HostLimitFacts& host, bool byCgroup) {
  Enforcement e{ResourceLimit::Pids, l.pids, true, "", ""};
  if (byCgroup) {
    e.mechanism = host.v2Parent.empty() ? "cgroup v1 pids.max" : "cgroup v2 pids.max";
    e.note = "the step's whole tree, threads included";
  } else if (host.root) {
    e.enforced = false;
    e.mechanism = "not enforced";
    e.note = "RLIMIT_NPROC does not bind uid 0, and no cgroup is available: " + host.noCgroupReason;
  } else {
    e.mechanism = "RLIMIT_NPROC";
    e.note = "counts every process of the user, not only the step's: " + host.noCgroupReason;
  }
  return e;
}

Enforcement memoryEnforcement(const ResourceLimits& l, const HostLimitFacts& host, bool byCgroup) {
  Enforcement e{ResourceLimit::Memory, l.memoryBytes, true, "", ""};
  if (byCgroup) {
    e.mechanism = host.v2Parent.empty() ? "cgroup v1 memory.limit_in_bytes" : "cgroup v2 memory.max";
    bool noSwap = host.v2Parent.empty() ? host.v1MemswFile : host.v2SwapFile;
    e.note = std::string("the step's whole tree, its tmpfs pages included") +
             (noSwap ? "; no swap on top" : "; swap is not accounted on this host");
  } else {
    e.mechanism = "RLIMIT_DATA";
    e.note = "per process (heap and private writable mappings), not the tree as a whole: " + host.noCgroupReason;
  }
  return e;
}

}  // namespace

Plan planLimits(const ResourceLimits& l, const HostLimitFacts& host, const std::string& leaf, const Scratch& scratch) {
  Plan plan;
  bool pidsByCgroup = false, memoryByCgroup = false;
  planCgroups(l, host, leaf, plan, pidsByCgroup, memoryByCgroup);
  // Set even where it does not bind (uid 0): harmless, and it binds again if
  // the step's uid changes.
  if (!pidsByCgroup) addRlimit(plan, host, RLIMIT_NPROC, l.pids);
  if (!memoryByCgroup) addRlimit(plan, host, RLIMIT_DATA, l.memoryBytes);
  addRlimit(plan, host, RLIMIT_FSIZE, l.fileSizeBytes);
  addRlimit(plan, host, RLIMIT_NOFILE, l.openFiles);
  if (l.cpuSeconds) addRlimit(plan, host, RLIMIT_CPU, *l.cpuSeconds);
  // A core dump of a memory bomb would be a file as large as the bomb.
  addRlimit(plan, host, RLIMIT_CORE, 0);

  plan.enforcement.push_back(pidsEnforcement(l, host, pidsByCgroup));
  plan.enforcement.push_back(memoryEnforcement(l, host, memoryByCgroup));
  plan.enforcement.push_back({ResourceLimit::FileSize, l.fileSizeBytes, true, "RLIMIT_FSIZE",
                              "per file (a larger write fails with EFBIG); the number of files is not bounded"});
  plan.enforcement.push_back({ResourceLimit::OpenFiles, l.openFiles, true, "RLIMIT_NOFILE", "per process"});
  if (l.cpuSeconds)
    plan.enforcement.push_back({ResourceLimit::CpuSeconds, l.cpuSeconds, true, "RLIMIT_CPU", "per process"});
  else
    plan.enforcement.push_back({ResourceLimit::CpuSeconds, std::nullopt, false, "not asked",
                                "no cpuSeconds limit; the wall time bounds the step"});
  if (!scratch.tmpfsMechanism.empty())
    plan.enforcement.push_back({ResourceLimit::TmpSize, l.tmpBytes, true, scratch.tmpfsMechanism, ""});
  else
    plan.enforcement.push_back({ResourceLimit::TmpSize, l.tmpBytes, false, "not applicable", scratch.noTmpfsNote});
  return plan;
}

}  // namespace lw::sandbox::limits
