// The pure half of the docker backend: one step (StepSpec + a pinned image +
// host path facts) -> the JSON body of `POST /containers/create`. No
// network but loopback (NetworkMode none), a read-only root filesystem, no
// capabilities, no-new-privileges, an init reaping zombies, the step's limits
// (pids, memory without swap, ulimits, the /tmp size), and only the step's own trees bound in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "sandbox/backend.h"
#include "sandbox/docker/host_paths.h"
#include "sandbox/docker/image_ref.h"

namespace lw::sandbox::docker {

inline constexpr std::string_view kRunLabel = "dev.loopwright.run";
inline constexpr std::string_view kStepLabel = "dev.loopwright.step";

// Where the container init (loopwright-container-init) and the filter it
// installs are seen inside the container.
inline constexpr std::string_view kInitTarget = "/.loopwright/init";
inline constexpr std::string_view kFilterTarget = "/.loopwright/seccomp.bpf";

struct ContainerPlanInput {
  StepSpec spec;
  // Host paths of loopwright-container-init and of the compiled seccomp
  // filter, both bound read-only: the step runs as the init's argument.
  std::string initBinary;
  std::string filterFile;
  // An empty directory on the host: the source bound read-only over a
  // protected path that does not exist yet (the engine creates the mount
  // point, which the launcher removes afterwards: ContainerPlan::placeholders).
  std::string emptyDir;
  PinnedImage image;
  std::string user;  // "uid:gid" inside the container
  std::string runLabel;
  std::string stepLabel;
  PathFacts facts;  // at least pathsToObserve(spec)
};

struct ContainerPlan {
  boost::json::object body;
  // Mount points the engine creates on the host for protected paths that do
  // not exist yet (their first missing component, masked by emptyDir so the
  // step cannot create them); the launcher removes them after the container.
  std::vector<std::filesystem::path> placeholders;
  // What the plan could not mask and why (a protected path that does not
  // exist yet, one reached through a symlink): left to verify, said aloud.
  std::vector<std::string> notes;
};

// How a container holds each of the step's limits (spec.limits): the
// engine's cgroup for pids and memory (no swap on top), ulimits for file
// size, open files and CPU time, the size of the private /tmp tmpfs.
std::vector<limits::Enforcement> containerLimitsEnforcement(const ResourceLimits& l);

// Fails with SANDBOX_LAUNCH_FAILED when the spec cannot be carried out
// faithfully: no container init or filter, no argv, relative or missing
// workspace/out dir, a descriptor to pass (a container cannot inherit one), a
// writable path reached through a symlink, a writable path inside a protected
// one, a bound tree inside a denied path.
Result<ContainerPlan> planContainer(const ContainerPlanInput& input);

}  // namespace lw::sandbox::docker
