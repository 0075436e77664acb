// What a k8s-pod step's pod gets of loopwright's own besides its workspace,
// decided from the step before the pod exists (docs/kubernetes.md):
//  - the run's event, which the other backends show the step read-only: in
//    the /loopwright volume, which the step mounts read-only, as
//    LOOPWRIGHT_EVENT (the pipeline's copy in the out dir stays on the host);
//  - for a step with a bridge (StepSpec::passFd), loopwright-container-init
//    and the step's seccomp filter, the step's argv through the init and
//    LOOPWRIGHT_BRIDGE at the relay's socket (k8s_bridge_relay.h). The
//    init is this runner's own static binary: the pod asks for a node of
//    its architecture;
//  - for a step whose networkMode is allow-list, the same init, which is
//    the pod's end of its egress (k8s_egress_relay.h).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"
#include "sandbox/backend.h"
#include "sandbox/k8s/k8s_tar.h"

namespace lw::sandbox::k8s {

struct StepFiles {
  StepSpec spec;               // argv and env as the pod runs them (host paths still the host's)
  std::vector<TarFile> files;  // for /loopwright; empty: the pod needs no such volume
  std::string nodeArch;        // the init's architecture, when the pod runs it ("" any)
};

// This build's architecture as Kubernetes names it (kubernetes.io/arch).
std::string runnerArch();

// `filter` is the compiled seccomp program's bytes, used when the step has a
// bridge. SANDBOX_LAUNCH_FAILED when the init is not installed or the event
// cannot be read.
Result<StepFiles> stepFilesFor(const StepSpec& spec, const std::filesystem::path& initBinary,
                               const std::string& filter);

}  // namespace lw::sandbox::k8s
