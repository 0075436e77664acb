// The pure gVisor planner: a step and the facts of this host in, the OCI
// bundle runsc runs out (its config.json, the symlinks of its empty root,
// the runsc flags). No system call happens here.
//
// The filesystem view is linux-bwrap's, by construction: the step is first
// planned by bwrap_plan.h and each of its mount operations becomes the OCI
// mount that does the same (a bind, a read-only bind, a tmpfs, a mask), in
// the same order, so that the two backends can never disagree on what a step
// sees. An option of bwrap's planner this translation does not know fails
// the plan instead of being dropped.
//
// What gVisor adds: the step's system calls go to gVisor's own kernel (the
// Sentry), not the host's; its network is gVisor's netstack (loopback only
// with --network=none); inside it, every capability is dropped,
// no-new-privileges is set, and an OCI seccomp filter (--oci-seccomp) refuses
// a chown that changes nothing and, with networkMode none, every socket that
// is not a unix socket.
#pragma once

#include <boost/json/object.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "sandbox/backend.h"
#include "sandbox/bwrap/bwrap_plan.h"

namespace lw::sandbox::gvisor {

struct GvisorOptions {
  std::filesystem::path rootfs;  // an empty directory: the bundle's read-only root
  // The step reaches its bridge through a unix socket on a bound path: runsc
  // must let it connect to host sockets (--host-uds=open).
  bool hostSockets = false;
  // RLIMIT_AS for the step's processes, where no memory cgroup holds its
  // memory (gVisor holds RLIMIT_AS, not RLIMIT_DATA).
  std::optional<std::int64_t> addressSpace;
};

struct GvisorPlan {
  boost::json::object config;  // the OCI runtime spec, config.json
  // Symlinks to create in the empty root before the start (/bin -> usr/bin):
  // the system trees a merged-/usr host has as links.
  std::vector<std::pair<std::filesystem::path, std::string>> rootSymlinks;
  std::vector<std::string> runscFlags;  // global flags before `run`
  // Mount points gVisor creates on the host for missing protected paths;
  // the launcher removes them (if still empty) after the step.
  std::vector<std::filesystem::path> placeholders;
  std::vector<std::string> notes;  // where the view is stricter than asked
};

// `spec` as the argument of the container init `init` (the bridge connected
// at fd 3, loopwright's seccomp filter `filterFile` installed, then the
// step's command), both files visible read-only at their host paths.
StepSpec withContainerInit(const StepSpec& spec, const std::filesystem::path& init,
                           const std::filesystem::path& filterFile);

// Fails with SANDBOX_LAUNCH_FAILED where planBwrap does, and when the root
// directory is not absolute.
Result<GvisorPlan> planGvisor(const StepSpec& spec, const GvisorOptions& options, const bwrap::PathLookup& lookup);

}  // namespace lw::sandbox::gvisor
