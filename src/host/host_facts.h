// Facts about this host that decide what a sandbox can give and whether the
// host may run jobs at all: platform, kernel, libc, free disk, cgroups, and
// whether this is a GitHub Actions runner (and an ephemeral one). Each fact
// has a pure classifier over recorded inputs and a thin observer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/environment.h"
#include "host/userns_diagnosis.h"

namespace lw::host {

struct PlatformFacts {
  std::string os;    // "linux", "darwin", or uname's sysname lower-cased
  std::string arch;  // "x64", "arm64", or uname's machine
  bool supported = false;
  std::string unsupportedReason;
  std::string kernel;  // uname release
  std::string libc;    // "glibc 2.36", "musl", "unknown"
};

// The supported set is darwin/arm64, linux/arm64, linux/x64.
PlatformFacts classifyPlatform(const std::string& sysname, const std::string& machine);

struct DiskFacts {
  std::string role;  // "work" or "temp"
  std::string path;
  std::optional<std::uint64_t> freeBytes;  // nullopt: statvfs failed
  std::string error;
};

struct CgroupFacts {
  int version = 0;          // 2 (unified), 1 (v1 or hybrid), 0 (none mounted)
  std::string ownCgroup;    // from /proc/self/cgroup ("/user.slice/…")
  bool killUsable = false;  // cgroup.kill exists and this user may write it
  std::string killReason;
};

// `unified`: /sys/fs/cgroup is a cgroup2 mount; `v1`: it holds v1 controllers.
// `selfCgroup`: the text of /proc/self/cgroup. `killExists`/`killWritable`:
// the own cgroup's cgroup.kill file (kernel 5.14+).
CgroupFacts classifyCgroup(bool unified, bool v1, const std::string& selfCgroup, bool killExists, bool killWritable);

struct RunnerFacts {
  bool actions = false;           // GITHUB_ACTIONS=true
  std::string environment;        // RUNNER_ENVIRONMENT: "github-hosted" / "self-hosted" / ""
  std::string name;               // RUNNER_NAME
  std::string runnerDir;          // where .runner was found (empty: not found)
  std::optional<bool> ephemeral;  // nullopt: cannot tell
  std::string ephemeralSource;    // what said so
  bool hooksInstalled = false;    // both job hooks name loopwright
  std::string hooksSource;
};

// `runnerFile`: the runner's .runner JSON (may carry "ephemeral"/"isEphemeral");
// `dotEnv`: its .env, where ACTIONS_RUNNER_HOOK_JOB_* are set.
RunnerFacts classifyRunner(const Environment& env, const std::string& runnerDir,
                           const std::optional<std::string>& runnerFile, const std::optional<std::string>& dotEnv);

struct HostFacts {
  PlatformFacts platform;
  std::vector<DiskFacts> disks;
  CgroupFacts cgroup;
  UsernsSysctls userns;
  RunnerFacts runner;
};

// The runner's directory: `explicitDir` when given, else the first ancestor of
// RUNNER_TEMP / RUNNER_WORKSPACE / the working directory holding `.runner`.
std::string findRunnerDir(const Environment& env, const std::string& explicitDir);

// Observes this host (uname, statvfs of the work and temp directories,
// /sys/fs/cgroup, /proc/sys, the runner's files). Never fails: an
// unobservable fact is reported as such.
HostFacts observeHost(const Environment& env, const std::string& runnerDir);

}  // namespace lw::host
