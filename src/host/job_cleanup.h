// What `loopwright runner hook job-completed` does: find everything the
// sandboxes of one CI job left behind and remove it.
//
// How leftovers are found (and why not a ledger written at launch): every
// step starts with LOOPWRIGHT_JOB=<job> in its environment
// (sandbox::stepEnvironment), and every process it forks or daemonizes
// inherits it — including processes that escaped the step's supervisor when
// loopwright and the supervisor were both SIGKILLed, which no ledger written
// at launch could list (their pids did not exist yet). Containers carry the
// same variable in their Config.Env and the dev.loopwright.run label. A
// process that deliberately scrubs its own environment is not found; the
// contained backends (pid namespace, subreaper) leave no such process.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/environment.h"
#include "policy/model/host_config.h"

namespace lw::host {

// Pure: whether a /proc/<pid>/environ block (NUL-separated) holds
// LOOPWRIGHT_JOB=<job> exactly.
bool environHasJob(std::string_view environ, std::string_view job);

// Pure: the start time (field 22, clock ticks since boot) from the text of
// /proc/<pid>/stat, whose comm field may hold spaces and parentheses.
std::optional<unsigned long long> startTimeFromStat(std::string_view stat);

// Pure: whether a directory entry name in a temp root is sandbox scratch
// ("lw-qualify-…", "lw-bwrap-probe-…").
bool isSandboxScratchName(std::string_view name);

struct CleanupOptions {
  std::string job;                     // the LOOPWRIGHT_JOB value to match
  std::vector<std::string> tempRoots;  // where sandbox scratch lives
  bool docker = true;                  // look for containers
  // The k8s-pod cluster of the host config: the job's pods are deleted (by
  // their loopwright.dev/run label, host/k8s_pod_setup.h).
  std::optional<K8sPodHostConfig> kubernetes;
  std::string procRoot = "/proc";
};

struct CleanupReport {
  std::vector<std::string> killed;      // "pid 1234 (sleep)"
  std::vector<std::string> containers;  // removed container ids
  std::vector<std::string> tempDirs;    // removed directories
  std::vector<std::string> cgroups;     // removed step cgroups of dead loopwrights
  std::vector<std::string> pods;        // deleted k8s-pod pods, "namespace/name"
  std::vector<std::string> problems;    // what could not be cleaned, and why
};

// Kills every process marked with the job (never this process or its
// ancestors), re-scanning until none is left (a process forking while it is
// killed); verifies each pid's start time through a pidfd so a recycled pid
// is never signalled. Removes marked containers and this user's sandbox
// scratch that no live process of the job holds. Never throws.
CleanupReport cleanUpJob(const Environment& env, const CleanupOptions& options);

// The scratch directory marker: qualification writes it into its scratch so
// job-completed knows whose it is ("<pid> <starttime> <job>").
std::string scratchOwnerLine(const std::string& job);

// What a scratch directory's marker (.lw-owner, scratchOwnerLine) says; all
// zero and empty when it has none.
struct ScratchOwner {
  int pid = 0;
  unsigned long long start = 0;
  std::string job;
};
ScratchOwner readScratchOwner(const std::string& dir);

// Removes `dir` and its contents, listing it in the report or saying why not.
void removeScratchDir(const std::string& dir, CleanupReport& report);

}  // namespace lw::host
