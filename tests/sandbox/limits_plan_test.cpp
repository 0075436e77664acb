#include <doctest/doctest.h>
#include <sys/resource.h>

#include <map>

#include "sandbox/limits/limits_host.h"
#include "sandbox/limits/limits_plan.h"

using namespace lw;
using namespace lw::sandbox::limits;

namespace {

ResourceLimits small() {
  ResourceLimits l;
  l.pids = 64;
  l.memoryBytes = 256 << 20;
  l.fileSizeBytes = 16 << 20;
  l.openFiles = 1024;
  return l;
}

const Scratch kNoTmp{"", "no private /tmp"};

std::string mechanismOf(const Plan& p, ResourceLimit r) {
  for (const auto& e : p.enforcement)
    if (e.limit == r) return (e.enforced ? "" : "NOT ") + e.mechanism;
  return "?";
}

}  // namespace

TEST_CASE("limits plan: a hybrid host (v1 pids and memory) gets two cgroups and no NPROC/DATA rlimits") {
  HostLimitFacts h;
  h.root = true;
  h.v1PidsParent = "/sys/fs/cgroup/pids";
  h.v1MemoryParent = "/sys/fs/cgroup/memory/job";
  h.v1MemswFile = true;
  Plan p = planLimits(small(), h, "7-1", kNoTmp);
  REQUIRE(p.cgroups.size() == 2);
  CHECK(p.cgroups[0].path == "/sys/fs/cgroup/pids/loopwright-7-1");
  CHECK(p.cgroups[0].writes.size() == 1);
  CHECK(p.cgroups[0].writes[0].file == "pids.max");
  CHECK(p.cgroups[0].writes[0].value == "64");
  CHECK(p.cgroups[1].path == "/sys/fs/cgroup/memory/job/loopwright-7-1");
  REQUIRE(p.cgroups[1].writes.size() == 2);
  CHECK(p.cgroups[1].writes[0].file == "memory.limit_in_bytes");
  CHECK(p.cgroups[1].writes[1].file == "memory.memsw.limit_in_bytes");  // after: it may not be below
  CHECK(p.cgroups[1].writes[1].value == "268435456");
  CHECK(p.rlimits == std::vector<RlimitSetting>{{RLIMIT_FSIZE, 16 << 20}, {RLIMIT_NOFILE, 1024}, {RLIMIT_CORE, 0}});
  CHECK(mechanismOf(p, ResourceLimit::Pids) == "cgroup v1 pids.max");
  CHECK(mechanismOf(p, ResourceLimit::Memory) == "cgroup v1 memory.limit_in_bytes");
  CHECK(mechanismOf(p, ResourceLimit::FileSize) == "RLIMIT_FSIZE");
  CHECK(mechanismOf(p, ResourceLimit::CpuSeconds) == "NOT not asked");
  CHECK(mechanismOf(p, ResourceLimit::TmpSize) == "NOT not applicable");
}

TEST_CASE("limits plan: a delegated cgroup v2 subtree gets one cgroup with pids, memory and no swap") {
  HostLimitFacts h;
  h.v2Parent = "/sys/fs/cgroup/user.slice/lw";
  h.v2SwapFile = true;
  h.v1PidsParent = "/ignored";
  ResourceLimits l = small();
  l.cpuSeconds = 30;
  Plan p = planLimits(l, h, "7-2", {"bwrap --size", ""});
  REQUIRE(p.cgroups.size() == 1);
  CHECK(p.cgroups[0].v2);
  CHECK(p.cgroups[0].path == "/sys/fs/cgroup/user.slice/lw/loopwright-7-2");
  REQUIRE(p.cgroups[0].writes.size() == 3);
  CHECK(p.cgroups[0].writes[2].file == "memory.swap.max");
  CHECK(p.cgroups[0].writes[2].value == "0");
  CHECK(p.rlimits == std::vector<RlimitSetting>{
                         {RLIMIT_FSIZE, 16 << 20}, {RLIMIT_NOFILE, 1024}, {RLIMIT_CPU, 30}, {RLIMIT_CORE, 0}});
  CHECK(mechanismOf(p, ResourceLimit::Pids) == "cgroup v2 pids.max");
  CHECK(mechanismOf(p, ResourceLimit::CpuSeconds) == "RLIMIT_CPU");
  CHECK(mechanismOf(p, ResourceLimit::TmpSize) == "bwrap --size");
}

TEST_CASE("limits plan: without a cgroup, rlimits, and root's pids limit is said not to hold") {
  HostLimitFacts h;
  h.noCgroupReason = "no cgroup here";
  SUBCASE("unprivileged: RLIMIT_NPROC (per user) and RLIMIT_DATA (per process)") {
    Plan p = planLimits(small(), h, "x", kNoTmp);
    CHECK(p.cgroups.empty());
    CHECK(p.rlimits == std::vector<RlimitSetting>{{RLIMIT_NPROC, 64},
                                                  {RLIMIT_DATA, 256 << 20},
                                                  {RLIMIT_FSIZE, 16 << 20},
                                                  {RLIMIT_NOFILE, 1024},
                                                  {RLIMIT_CORE, 0}});
    CHECK(mechanismOf(p, ResourceLimit::Pids) == "RLIMIT_NPROC");
    CHECK(p.enforcement[0].note == "counts every process of the user, not only the step's: no cgroup here");
    CHECK(mechanismOf(p, ResourceLimit::Memory) == "RLIMIT_DATA");
  }
  SUBCASE("root: RLIMIT_NPROC does not bind uid 0") {
    h.root = true;
    Plan p = planLimits(small(), h, "x", kNoTmp);
    CHECK(mechanismOf(p, ResourceLimit::Pids) == "NOT not enforced");
    CHECK(p.enforcement[0].note == "RLIMIT_NPROC does not bind uid 0, and no cgroup is available: no cgroup here");
  }
  SUBCASE("a lower hard limit is kept (it cannot be raised, and is stricter)") {
    h.hardLimits[RLIMIT_NOFILE] = 512;
    Plan p = planLimits(small(), h, "x", kNoTmp);
    CHECK(p.rlimits[3] == RlimitSetting{RLIMIT_NOFILE, 512});
  }
}

TEST_CASE("limits host: this process's cgroup directories from /proc/self/cgroup and mountinfo") {
  // A hybrid host: v1 controllers, and a v2 hierarchy without them.
  const char* cgroup = "8:pids:/\n4:memory:/jobs/abc\n1:cpu:/\n0::/\n";
  const char* mountinfo =
      "30 25 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
      "31 30 0:27 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
      "32 30 0:28 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
      "33 30 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
  CgroupPaths p = cgroupPathsFrom(cgroup, mountinfo);
  CHECK(p.v1PidsDir == "/sys/fs/cgroup/pids");
  CHECK(p.v1MemoryDir == "/sys/fs/cgroup/memory/jobs/abc");
  CHECK(p.v2Dir == "/sys/fs/cgroup/unified");
  // A container's view: the hierarchy mounted from our own cgroup down.
  CgroupPaths c = cgroupPathsFrom("0::/system.slice/ci.service\n",
                                  "40 30 0:30 /system.slice/ci.service /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
  CHECK(c.v2Dir == "/sys/fs/cgroup");
}

TEST_CASE("limits host: the usual cgroup layout is found without mountinfo, and anything else is not guessed") {
  std::map<std::string, CgroupFs> dirs;
  CgroupFsLookup fsAt = [&](const std::string& dir) {
    auto it = dirs.find(dir);
    return it == dirs.end() ? CgroupFs::NotCgroup : it->second;
  };
  SUBCASE("a hybrid host: v1 controllers, and cgroup2 at unified") {
    dirs = {{"/sys/fs/cgroup", CgroupFs::NotCgroup},
            {"/sys/fs/cgroup/unified", CgroupFs::V2},
            {"/sys/fs/cgroup/pids", CgroupFs::V1},
            {"/sys/fs/cgroup/memory/jobs/abc", CgroupFs::V1}};
    auto p = conventionalCgroupPaths("8:pids:/\n4:memory:/jobs/abc\n1:cpu:/\n0::/\n", fsAt);
    REQUIRE(p.has_value());
    CHECK(p->v2Dir == "/sys/fs/cgroup/unified");
    CHECK(p->v1PidsDir == "/sys/fs/cgroup/pids");
    CHECK(p->v1MemoryDir == "/sys/fs/cgroup/memory/jobs/abc");
  }
  SUBCASE("a cgroup2-only host") {
    dirs = {{"/sys/fs/cgroup/system.slice/runner.service", CgroupFs::V2}};
    auto p = conventionalCgroupPaths("0::/system.slice/runner.service\n", fsAt);
    REQUIRE(p.has_value());
    CHECK(p->v2Dir == "/sys/fs/cgroup/system.slice/runner.service");
    CHECK(p->v1PidsDir.empty());
  }
  SUBCASE("a container whose mount shows a subtree: our full path is not there") {
    dirs = {{"/sys/fs/cgroup", CgroupFs::V2}};
    CHECK_FALSE(conventionalCgroupPaths("0::/docker/abc\n", fsAt).has_value());
  }
  SUBCASE("a v1 controller mounted elsewhere") {
    dirs = {{"/sys/fs/cgroup/unified", CgroupFs::V2}, {"/cgroup/pids", CgroupFs::V1}};
    CHECK_FALSE(conventionalCgroupPaths("8:pids:/\n0::/\n", fsAt).has_value());
  }
}

TEST_CASE("limits plan: a step cgroup's owner is read from its name, a gVisor step's included") {
  using lw::sandbox::limits::stepCgroupOwner;
  CHECK(stepCgroupOwner("loopwright-1234-7") == 1234);
  CHECK(stepCgroupOwner("loopwright-lw-10657-7") == 10657);  // named after its gVisor container
  CHECK_FALSE(stepCgroupOwner("loopwright-lw-").has_value());
  CHECK_FALSE(stepCgroupOwner("loopwright-1234").has_value());
  CHECK_FALSE(stepCgroupOwner("loopwright-x-1").has_value());
  CHECK_FALSE(stepCgroupOwner("other-1234-1").has_value());
  CHECK_FALSE(stepCgroupOwner("loopwright-0-1").has_value());
}
