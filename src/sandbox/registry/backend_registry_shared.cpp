// What either build's registry holds alike (backend_registry.cpp is the
// Linux one, backend_registry_portable.cpp the portable one).
#include "policy/resolve/resolve.h"
#include "sandbox/registry/backend_registry.h"

namespace lw::sandbox {

std::vector<BackendId> defaultBackendOrder() { return {kDefaultBackendOrder.begin(), kDefaultBackendOrder.end()}; }

std::unique_ptr<Backend> makeK8sPodBackend(const RegistryOptions& options) {
  if (options.kubernetes) {
    k8s::K8sPodConfig config = *options.kubernetes;
    config.readCache = config.readCache && !options.freshProbes;
    return std::make_unique<k8s::K8sPodBackend>(std::move(config));
  }
  return makeUnavailableBackend(BackendId::K8sPod,
                                "k8s-pod runs steps on a cluster the host config names (sandbox.kubernetes, "
                                "docs/kubernetes.md); none is configured");
}

}  // namespace lw::sandbox
