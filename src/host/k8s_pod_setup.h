// The k8s-pod backend's cluster from the host config's `kubernetes:`
// section (docs/kubernetes.md): the API server and credentials as the
// Kubernetes lease store reads them (a kubeconfig, else the in-cluster
// service account; the token read again for every request), its CA for both
// the JSON calls and exec's WebSocket, and the job as the pods' run label,
// which the job-completed sweep deletes by.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "core/environment.h"
#include "core/result.h"
#include "policy/model/host_config.h"
#include "sandbox/registry/backend_registry.h"

namespace lw::host {

// The registry's options with k8s-pod's cluster when the host config names
// one. Credentials that cannot be read make every call fail with why, so the
// backend reports itself unavailable with the reason.
sandbox::RegistryOptions registryOptionsFor(const HostConfig& host, const Environment& env);

// The pods' loopwright.dev/run label for a job (its LOOPWRIGHT_JOB marker,
// sandbox/process/step_env.h): "job-" and 16 hex of the marker's SHA-256 (a label
// value is at most 63 of [A-Za-z0-9._-]), or "local" outside a job.
std::string k8sJobLabel(const std::optional<std::string>& job);

// Deletes the pods of `job` a killed loopwright left (the job-completed
// hook); their names. Ok(empty) when no cluster is configured.
Result<std::vector<std::string>> sweepK8sPods(const std::optional<K8sPodHostConfig>& cluster, const std::string& job);

}  // namespace lw::host
