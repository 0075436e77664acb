// One gVisor sandbox's life on the host: its scratch directory (the OCI
// bundle and runsc's private state root, --root), the container's name, and
// the removal of both on every path — a normal exit, a timeout, a kill, a
// launch error — and, for a loopwright killed with SIGKILL, by the
// job-completed hook (host/job_cleanup.h), which finds the scratch by its
// name and its owner line.
//
// Why runsc dies with loopwright: runsc runs the sandbox `--attached` (its
// Sentry and gofer die with it), and runsc itself is started with a parent
// death signal; what is left is state on disk, which runsc delete and the
// sweep remove.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "core/result.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::gvisor {

// Every scratch directory starts with this, under the temp root.
inline constexpr const char* kScratchPrefix = "lw-gvisor-";
// Every container's name starts with this ("lw-<pid>-<n>").
inline constexpr const char* kContainerPrefix = "lw-";
// The owner line in the scratch (host::scratchOwnerLine's format).
inline constexpr const char* kOwnerFile = ".lw-owner";

struct Scratch {
  std::filesystem::path dir;     // <tempRoot>/lw-gvisor-XXXXXX
  std::filesystem::path bundle;  // dir/bundle: config.json and rootfs/
  std::filesystem::path rootfs;  // dir/bundle/rootfs: the empty read-only root
  std::filesystem::path state;   // dir/state: runsc --root
  std::filesystem::path log;     // dir/runsc.log: runsc --log, its own errors only
  std::string container;         // lw-<pid>-<n>
};

// Creates the scratch (mode 0700) and writes `ownerLine` into it.
// SANDBOX_LAUNCH_FAILED when the temp root is not writable.
Result<Scratch> makeScratch(const std::filesystem::path& tempRoot, const std::string& ownerLine);

// runsc kill + delete of whatever container `state` still holds (nothing
// when runsc ended normally: it deletes its own), then the scratch removed.
// Best effort and idempotent.
void removeSandbox(const std::string& runscPath, const Scratch& scratch);

// `inner` (runsc run), removing the sandbox after wait() or kill() returns,
// or when it is dropped. A wait() whose runsc logged an error of its own
// (the sandbox did not start: platform, seccomp, cgroups) carries it as the
// exit's launchFailure, SANDBOX_LAUNCH_FAILED naming runsc's cause; the
// step's own output never reaches that log, so a step cannot fake it.
std::unique_ptr<process::RunningProcess> removingSandboxAfter(std::unique_ptr<process::RunningProcess> inner,
                                                              std::string runscPath, Scratch scratch);

}  // namespace lw::sandbox::gvisor
