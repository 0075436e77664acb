// The portable build (LOOPWRIGHT_LINUX_BACKENDS=OFF) has no libseccomp to
// compile the filter a k8s-pod step with a bridge runs under, nor the Linux
// loopwright-container-init the pod would run: such a step is refused, never
// run without its filter.
#include "sandbox/k8s/k8s_pod_backend.h"

namespace lw::sandbox::k8s {

Result<std::string> K8sPodBackend::filterFor(const StepSpec& spec) {
  if (!spec.passFd) return std::string();
  return makeError(ErrorCode::SandboxCapabilityInsufficient,
                   "k8s-pod cannot run this step: the bridge is carried into a pod only from a Linux runner (this "
                   "build has no seccomp filter compiler and no Linux loopwright-container-init to copy in)",
                   "run steps that use the bridge on k8s-pod from a Linux runner (docs/kubernetes.md)", "k8s-pod");
}

}  // namespace lw::sandbox::k8s
