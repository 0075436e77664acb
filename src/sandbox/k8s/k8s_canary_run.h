// The k8s-pod canary's effects: a TCP listener on this runner (on the
// address it reaches the API server from), one canary pod through the
// backend's own launch — the same plan, RuntimeClass and NetworkPolicy as a
// step — and what it printed and the listener saw, judged by k8s_canary.h.
#pragma once

#include <chrono>
#include <string>

#include "sandbox/backend.h"
#include "sandbox/k8s/k8s_canary.h"
#include "sandbox/k8s/k8s_cluster.h"

namespace lw::sandbox::k8s {

struct CanaryRunInput {
  ClusterEndpoint endpoint;
  SandboxRuntime runtime = SandboxRuntime::GVisor;
  CanaryTarget publicAddress{"public", "1.1.1.1", 443};
  std::chrono::seconds timeout{120};
};

CanaryVerdict runCanaryPod(Backend& backend, const CanaryRunInput& input);

// The API server as a canary target (serverAddress, k8s_exec.h); port 0 when unreadable.
CanaryTarget apiTarget(const std::string& server);

}  // namespace lw::sandbox::k8s
