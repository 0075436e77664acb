// The backends of this build, constructed for this host: the single list
// negotiation and `sandbox backends` iterate. Constructing one probes
// nothing; Backend::probe() does, lazily.
#pragma once

#include <memory>
#include <vector>

#include "core/environment.h"
#include "sandbox/backend.h"
#include "sandbox/k8s/k8s_pod_backend.h"
#include "sandbox/unavailable_backend.h"

namespace lw::sandbox {

struct RegistryOptions {
  // Ignore on-disk probe caches (`sandbox backends` shows a fresh observation).
  bool freshProbes = false;
  // The cluster the host config names for k8s-pod; without one it is
  // present and unavailable, saying so.
  std::optional<k8s::K8sPodConfig> kubernetes;
};

// k8s-pod on `options`' cluster, or unavailable for want of one.
std::unique_ptr<Backend> makeK8sPodBackend(const RegistryOptions& options);

// One backend per BackendId, in kAllBackends order. A backend this platform
// cannot have (macos-seatbelt on Linux) is present and reports itself
// unavailable with the reason.
std::vector<std::unique_ptr<Backend>> makeBackends(const Environment& env, const RegistryOptions& options = {});

// The backends `sandbox exec` and `sandbox probe` negotiate over when no
// --backend is given, in order: those an omitted policy negotiates over,
// fail-closed (kDefaultBackendOrder, policy/resolve/resolve.h).
std::vector<BackendId> defaultBackendOrder();

}  // namespace lw::sandbox
