// k8s-pod: each step in a pod of its own on the cluster the host config
// names (docs/kubernetes.md), under a gVisor or Kata RuntimeClass, with
// restricted Pod Security and a default-deny NetworkPolicy checked before
// every pod (k8s_preflight.h): L3 remote. The planner is k8s_pod_plan.h;
// this is the effects: pre-flight, create, then PodRun (k8s_pod_run.h) moves
// the workspace in, runs the step, brings the outputs out and deletes the
// pod on every path.
//
// Capabilities are the pre-flight's, from what the API shows, and a canary
// pod's (k8s_canary.h) for what only a pod can show: that the network plugin
// enforces the policy and that the node runs the RuntimeClass's kernel (L3);
// nothing is assumed of the cluster.
//
// The bridge: the pipeline hands the step's end of its socket pair over as
// for a local process (BridgeTransport::Descriptor); the backend carries it
// into the pod over one exec stream to a relay in the step's container, and
// the step gets it as fd 3 through loopwright-container-init, as docker and
// gVisor steps do (k8s_bridge_relay.h, k8s_step_files.h). The run's event
// goes in read-only at /loopwright/event.json.
//
// networkMode allow-list: the pod keeps its default-deny policy and the
// run's egress proxy stays on the runner (EgressPath::ByBackend, with
// StepSpec::egressSocket). The init listens on the step's 127.0.0.1:3128 in
// the pod and each connection is carried over an exec stream of its own to
// a new connection to the proxy, at most 32 at once (k8s_egress_relay.h);
// the allow-list, the address checks and the denial records are the
// proxy's, as on every backend. The probe reports allow-list as the canary
// saw network isolation. allow-outbound is refused.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "core/executables.h"
#include "core/http.h"
#include "sandbox/backend.h"
#include "sandbox/k8s/k8s_canary.h"
#include "sandbox/k8s/k8s_cluster.h"
#include "sandbox/k8s/k8s_tar.h"
#include "sandbox/seccomp/seccomp_filter.h"

namespace lw::sandbox::k8s {

struct K8sPodConfig {
  ClusterEndpoint endpoint;
  std::shared_ptr<http::Transport> transport;  // the API's JSON calls (curl with the cluster's CA)
  std::string ns;                              // where the pods run
  std::string runtimeClassName;
  std::string image;     // pinned by digest; the step's own image when it names one
  std::string runLabel;  // loopwright.dev/run: the workflow run, which the sweep deletes by
  std::int64_t podDeadlineSeconds = 6 * 3600;
  std::chrono::milliseconds startTimeout{180000};
  std::chrono::milliseconds relayTimeout{30000};  // until the bridge's relay listens
  std::size_t maxWorkspaceBytes = std::size_t{512} << 20;
  UntarLimits outputs;
  // The probe's canary pod (k8s_canary.h): the public address it must not
  // reach, how long it may take, and the cache of what it observed.
  CanaryTarget canaryPublicAddress{"public", "1.1.1.1", 443};
  std::chrono::seconds canaryTimeout{120};
  std::optional<std::filesystem::path> cacheFile;  // nullopt: none
  bool readCache = true;                           // false: always probe afresh
  // Copied into the pod of a step with a bridge (k8s_step_files.h).
  std::filesystem::path initBinary = siblingExecutable(kContainerInitExecutable);
};

class K8sPodBackend final : public Backend {
 public:
  explicit K8sPodBackend(K8sPodConfig config) : config_(std::move(config)) {}

  BackendId id() const override { return BackendId::K8sPod; }
  BackendTraits traits() const override {
    BackendTraits t;
    t.bridge = BackendTraits::BridgeTransport::Descriptor;  // carried into the pod by the backend (see above)
    t.hostFilesVisible = false;                             // only the workspace and /out reach the pod
    t.canariesThroughShell = true;
    t.egress = BackendTraits::EgressPath::ByBackend;
    return t;
  }
  // The pre-flight against the cluster and the canary pod (cached), once per process.
  const ProbeReport& probe() override;
  // The pre-flight again (a policy may have gone since the probe), then the pod.
  Result<std::unique_ptr<process::RunningProcess>> launch(const StepSpec& spec) override;
  std::vector<limits::Enforcement> limitsEnforcement(const ResourceLimits& l) override;
  std::string hostDependencies() override;
  std::vector<std::string> hostNotes() override;

 private:
  Result<std::unique_ptr<process::RunningProcess>> createAndRun(const StepSpec& spec);
  Result<std::string> filterFor(const StepSpec& spec);

  K8sPodConfig config_;
  std::optional<ProbeReport> report_;
  seccomp::FilterCache filters_;
};

// The labels every pod of this backend carries (planPod's): the sweep's selector.
std::string sweepSelector(const std::string& runLabel);

}  // namespace lw::sandbox::k8s
