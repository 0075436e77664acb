// A sandbox backend: what it enforces on this host (observed by a probe, not
// read from a table) and how it launches one step. The backend is chosen once
// by negotiation (negotiate.h); nothing downstream branches on its name.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "policy/model/resource_limits.h"
#include "policy/model/vocabulary.h"
#include "sandbox/limits/limits_plan.h"
#include "sandbox/process/spawn.h"

namespace lw::sandbox {

enum class Support { Enforced, Partial, Absent };
std::string_view toString(Support s);

struct SupportStatus {
  Support support = Support::Absent;
  std::string reason;  // why partial/absent, or how it is enforced
};

// What one backend gives on this host, from a live probe.
struct ProbeReport {
  BackendId backend = BackendId::LinuxBwrap;
  bool available = false;         // can launch anything at all here
  std::string unavailableReason;  // when !available
  std::string version;            // "bubblewrap 0.8.0", "landlock ABI 7", "docker 28.2.2"
  std::map<Capability, SupportStatus> capabilities;
  std::map<NetworkMode, SupportStatus> networkModes;
  // What the probe saw of the step running on another kernel than the
  // host's (its release, boot id, modules, refused host-kernel interfaces),
  // in words; empty when it did not see it. L3 is this, observed, never
  // configured (observedIsolation).
  std::string kernelSeparation;
};

// The level `r`'s backend gives on this host: isolationOf(r.backend), except
// that L3 (another kernel per step) holds only with kernelSeparation
// observed; without it a step under that backend shares the host's kernel
// like any OS sandbox, L1.
Isolation observedIsolation(const ProbeReport& r);

// Every capability and network mode of `r` absent, for `why` (a backend
// that cannot launch anything here).
void markAllAbsent(ProbeReport& r, const std::string& why);

// Everything a backend needs to run one step. Paths are host paths; the
// workspace and the out dir appear at the same paths inside the sandbox.
struct StepSpec {
  std::vector<std::string> argv;
  std::filesystem::path workspace;
  bool workspaceWritable = false;                      // author role only
  std::vector<std::filesystem::path> writablePaths;    // extra writable trees (author scope)
  std::vector<std::filesystem::path> protectedPaths;   // read-only even inside writable trees
  std::vector<std::filesystem::path> deniedReadPaths;  // unreadable (masked)
  // Extra host paths visible read-only at the same path (the event file, the
  // loopwright binary for `bridge stdio`); never writable.
  std::vector<std::filesystem::path> readOnlyPaths;
  std::filesystem::path outDir;   // LOOPWRIGHT_OUT: always writable
  std::filesystem::path workdir;  // cwd inside; empty = workspace
  NetworkMode network = NetworkMode::None;
  std::map<std::string, std::string> env;  // the step's whole environment (allow-listed)
  std::optional<int> passFd;               // one descriptor kept open (the bridge)
  // networkMode allow-list on a backend whose traits say EgressPath::ByBackend:
  // the unix socket of the step's egress proxy, which the backend alone
  // connects the step's 127.0.0.1:3128 to (docs/egress.md).
  std::filesystem::path egressSocket;
  std::optional<std::string> image;      // container image (docker only)
  std::size_t maxOutputBytes = 1 << 20;  // per stream
  ResourceLimits limits;                 // pids, memory, file size, … (safe defaults)
  // Optional live copy of the output (see process::SpawnRequest::onOutput).
  std::function<void(int stream, const char* data, std::size_t size)> onOutput;
};

// How a backend differs in what the pipeline must prepare for a step, so
// that no caller compares BackendId values.
struct BackendTraits {
  // How the step reaches its bridge: a descriptor it inherits (LOOPWRIGHT_BRIDGE
  // =fd:3), or a unix socket path inside a directory the backend mounts
  // (a container cannot be handed a descriptor).
  enum class BridgeTransport { Descriptor, SocketPath };
  BridgeTransport bridge = BridgeTransport::Descriptor;
  // The step sees host files only where the backend mounts them: the event
  // file must be copied into the out dir, and loopwright's own executables
  // are not there (built-in steps cannot run).
  bool hostFilesVisible = true;
  // The step runs in a pinned image (StepSpec::image must be set).
  bool needsImage = false;
  // A user-namespace-based backend: some canaries change meaning without one.
  bool usesUserNamespaces = false;
  // How qualify's canaries start a command in it: through /bin/sh of the
  // image, or directly.
  bool canariesThroughShell = false;
  // networkMode allow-list: how the step's 127.0.0.1:3128 reaches its egress
  // proxy. RelayInStep: the pipeline runs the command under
  // loopwright-container-init's relay and shows it the proxy's socket
  // read-only (the sandbox holds none of the host's sockets). ByBackend: the
  // backend does it from StepSpec::egressSocket its own way.
  enum class EgressPath { RelayInStep, ByBackend };
  EgressPath egress = EgressPath::RelayInStep;
  // No containment at all (the machine is the sandbox): a host's floor must
  // allow it (allowDirectDedicated).
  bool runsUnconfined = false;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendId id() const = 0;
  virtual BackendTraits traits() const = 0;
  // Observes this host once per process and caches the answer.
  virtual const ProbeReport& probe() = 0;
  // Starts the step. Fails with SANDBOX_LAUNCH_FAILED naming what failed.
  virtual Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) = 0;
  // How launch() holds each of `l` on this host (cgroup, rlimit, container
  // setting, or not enforced and why), one entry per ResourceLimit: the same
  // plan launch() carries out, for the run record and `sandbox exec --report`.
  // Default: the host plan of a step started by loopwright with no private tmpfs.
  virtual std::vector<limits::Enforcement> limitsEnforcement(const ResourceLimits& l);
  // What this backend's behaviour here depends on besides the kernel, the
  // user and loopwright (its helper binary, its engine's version), so that a
  // change of either changes the text. Cheap: launches no sandbox. Part of a
  // qualification's fingerprint; empty when nothing.
  virtual std::string hostDependencies() { return {}; }
  // What an admin must weigh about this backend on this host (who can reach
  // the Docker socket is root-equivalent), one sentence each; for qualify.
  virtual std::vector<std::string> hostNotes() { return {}; }
};

// What a launcher that runs the step's command itself starts from: its argv,
// environment, working directory (workdir, else the workspace), descriptor
// and output cap, with no setup yet.
process::SpawnRequest spawnRequestFor(const StepSpec& spec);

}  // namespace lw::sandbox
