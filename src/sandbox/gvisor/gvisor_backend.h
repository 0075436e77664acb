// linux-gvisor: each step in a gVisor sandbox (runsc, invoked directly; no
// container engine), from the OCI bundle gvisor_plan.h builds — linux-bwrap's
// filesystem view on gVisor's own kernel. The one backend whose level is L3,
// and only where its probe saw the step on another kernel (gvisor_probe.h).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/environment.h"
#include "sandbox/backend.h"
#include "sandbox/gvisor/gvisor_container.h"
#include "sandbox/gvisor/gvisor_plan.h"
#include "sandbox/limits/limits_plan.h"
#include "sandbox/process/background_removal.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::sandbox::gvisor {

struct GvisorConfig {
  std::string runscPath;                           // absolute; empty when gVisor is not installed
  std::optional<std::filesystem::path> cacheFile;  // the probe cache; nullopt: none
  bool readCache = true;                           // false: always probe afresh
  std::filesystem::path tempRoot = "/tmp";         // where each sandbox's scratch goes
  // loopwright-container-init (static), the step's entrypoint inside gVisor
  // as in a docker container: it connects the bridge socket to fd 3 and
  // installs loopwright's seccomp filter before the step's command.
  std::filesystem::path initBinary;
};

// Finds runsc on the PATH of `env`, loopwright-container-init beside the
// running executable, the cache file and $TMPDIR.
GvisorConfig gvisorConfigFor(const Environment& env);

class GvisorBackend final : public Backend {
 public:
  explicit GvisorBackend(GvisorConfig config) : config_(std::move(config)) {}

  BackendId id() const override { return BackendId::LinuxGvisor; }
  BackendTraits traits() const override {
    BackendTraits t;
    // runsc passes a container no descriptor but its stdio: the bridge is a
    // unix socket in the out dir, which the container init connects to fd 3
    // (--host-uds=open) before its filter refuses every new socket.
    t.bridge = BackendTraits::BridgeTransport::SocketPath;
    // allow-list: the egress relay runs before that filter (launch()).
    t.egress = BackendTraits::EgressPath::ByBackend;
    return t;
  }
  const ProbeReport& probe() override;
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override;
  std::vector<limits::Enforcement> limitsEnforcement(const ResourceLimits& l) override;
  // The runsc binary's path and file identity, or "runsc missing".
  std::string hostDependencies() override;
  std::vector<std::string> hostNotes() override;
  // Blocks until what its finished steps left (their trash, their emptied
  // cgroups) is removed; the destructor does the same.
  void awaitRemovals() { removal_->drain(); }

 private:
  // What a launch leaves on disk for runsc: the scratch bundle, its plan and the step's limits.
  struct Bundle {
    Scratch scratch;
    GvisorPlan plan;
    limits::Plan limits;
  };

  ProbeReport runProbe();
  Result<Bundle> writeStepBundle(const StepSpec& spec);

  GvisorConfig config_;
  // Shared with each step's process, which hands it its leftovers; joined
  // when the last of them and the backend are gone.
  std::shared_ptr<BackgroundRemoval> removal_ = std::make_shared<BackgroundRemoval>();
  std::optional<ProbeReport> report_;
  seccomp::FilterCache filters_;
};

}  // namespace lw::sandbox::gvisor
