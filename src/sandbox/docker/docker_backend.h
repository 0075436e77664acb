// The docker backend: one container per step through the Docker Engine API
// on a local unix socket. It runs only images pinned by digest (a host
// runtime profile, docs/host-config.md, or `sandbox exec --image`), never pulls,
// and removes every container it created.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/environment.h"
#include "sandbox/backend.h"
#include "sandbox/docker/container_plan.h"
#include "sandbox/docker/engine_probe.h"
#include "sandbox/docker/http_transport.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::sandbox::docker {

struct DockerConfig {
  std::string socketPath = "/var/run/docker.sock";
  std::optional<Error> endpointError;  // DOCKER_HOST unusable: probes unavailable
  std::string runLabel;                // dev.loopwright.run on every container
  std::optional<std::string> user;     // "uid:gid"; default: this process's ids
  std::chrono::milliseconds probeTimeout{3000};
  std::chrono::milliseconds callTimeout{30000};
  std::chrono::milliseconds killGrace{10000};  // wait after a kill at the deadline
  // A watchdog process per container removes it if this process dies
  // without unwinding (orphan_reaper.h).
  bool reapOrphans = true;
  // loopwright-container-init, bound into every container as its entrypoint
  // (see src/container_init_main.cpp). Missing: the backend is unavailable.
  std::filesystem::path initBinary;
};

// DOCKER_HOST for the socket; the run label from GITHUB_RUN_ID and
// GITHUB_RUN_ATTEMPT, else "local-<pid>"; the container init beside this
// executable.
DockerConfig dockerConfigFromEnvironment(const Environment& env);

class DockerBackend final : public Backend {
 public:
  // `transport` defaults to libcurl on config.socketPath.
  explicit DockerBackend(DockerConfig config, std::shared_ptr<HttpTransport> transport = nullptr);

  BackendId id() const override { return BackendId::Docker; }
  BackendTraits traits() const override {
    BackendTraits t;
    t.bridge = BackendTraits::BridgeTransport::SocketPath;
    t.hostFilesVisible = false;
    t.needsImage = true;
    t.canariesThroughShell = true;
    t.egress = BackendTraits::EgressPath::ByBackend;  // container_plan.h
    return t;
  }
  const ProbeReport& probe() override;
  // Needs spec.image (pinned). The step's label is spec.env's
  // LOOPWRIGHT_STEP when set. Fails with SANDBOX_BACKEND_UNAVAILABLE when the
  // engine is unreachable, SANDBOX_LAUNCH_FAILED otherwise.
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override;
  std::vector<limits::Enforcement> limitsEnforcement(const ResourceLimits& l) override {
    return containerLimitsEnforcement(l);
  }
  // "docker " + the engine's socket and version (engine_probe.h).
  std::string hostDependencies() override;
  // Who can reach the engine's socket is root-equivalent (or, rootless, the
  // engine user's equal).
  std::vector<std::string> hostNotes() override;

 private:
  const EngineFacts& engineFactsLocked();  // probeMutex_ held
  Result<PinnedImage> launchableImage(const StepSpec& spec);
  ContainerPlanInput planInput(const StepSpec& spec, const PinnedImage& image);
  Result<std::unique_ptr<process::RunningProcess>> createAndStart(const StepSpec& spec, const ContainerPlan& plan,
                                                                  const std::string& name);

  DockerConfig config_;
  std::shared_ptr<HttpTransport> transport_;
  std::mutex probeMutex_;             // steps of a stage launch in parallel
  std::optional<EngineFacts> facts_;  // observed once, under probeMutex_
  std::optional<ProbeReport> report_;
  std::atomic<int> launches_{0};
  seccomp::FilterCache filters_;
};

// The registry's factory: configured from the environment.
std::unique_ptr<Backend> makeDockerBackend(const Environment& env);

}  // namespace lw::sandbox::docker
