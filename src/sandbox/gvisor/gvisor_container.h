// One gVisor sandbox's life on the host: its scratch directory (the OCI
// bundle and runsc's private state root, --root), the container's name, and
// the removal of both on every path — a normal exit, a timeout, a kill, a
// launch error — and, for a loopwright killed with SIGKILL, by the
// job-completed hook (host/job_cleanup.h), which finds the scratch (or its
// trash, below) by its name and its owner line.
//
// Once a step's container is deleted, its scratch is renamed to trash and
// removed off the step's critical path (sandbox/process/background_removal.h):
// deleting its few dozen entries and the mount points runsc made costs
// tens of milliseconds the step's result need not wait for.
//
// Why runsc dies with loopwright: runsc runs the sandbox `--attached` (its
// Sentry and gofer die with it), and runsc itself is started with a parent
// death signal; what is left is state on disk, which runsc delete and the
// sweep remove.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/result.h"
#include "sandbox/process/background_removal.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox::gvisor {

// Every scratch directory starts with this, under the temp root.
inline constexpr const char* kScratchPrefix = "lw-gvisor-";
// Every container's name starts with this ("lw-<pid>-<n>").
inline constexpr const char* kContainerPrefix = "lw-";
// The owner line in the scratch (host::scratchOwnerLine's format).
inline constexpr const char* kOwnerFile = ".lw-owner";
// A finished step's scratch, renamed for removal: kScratchPrefix + this +
// the scratch's own suffix, so the job-completed sweep still matches it.
inline constexpr const char* kTrashInfix = "trash-";

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

// Pure: where `scratchDir` (<tempRoot>/lw-gvisor-XXXXXX) goes as trash,
// <tempRoot>/lw-gvisor-trash-XXXXXX — a name mkdtemp never gives a scratch.
std::filesystem::path trashPathFor(const std::filesystem::path& scratchDir);

// Renames the scratch to its trash path (one rename: the sweep sees either
// name, never neither); nullopt when the kernel refused (a trash of that
// name still there), the scratch then untouched.
std::optional<std::filesystem::path> moveToTrash(const Scratch& scratch);

// removeSandbox with the removal of the scratch queued on `removal`: the
// container is deleted (runsc's state gone, so no process of it survives)
// before this returns; only its files are left, as trash. Where the
// container could not be deleted or the rename failed, removes it all now.
void retireSandbox(const std::string& runscPath, const Scratch& scratch, BackgroundRemoval& removal);

// `inner` (runsc run), retiring the sandbox on `removal` after wait() or
// kill() returns, or when it is dropped. A wait() whose runsc logged an
// error of its own (the sandbox did not start: platform, seccomp, cgroups)
// carries it as the exit's launchFailure, SANDBOX_LAUNCH_FAILED naming
// runsc's cause; the step's own output never reaches that log, so a step
// cannot fake it.
std::unique_ptr<process::RunningProcess> retiringSandboxAfter(std::unique_ptr<process::RunningProcess> inner,
                                                              std::string runscPath, Scratch scratch,
                                                              std::shared_ptr<BackgroundRemoval> removal);

}  // namespace lw::sandbox::gvisor
