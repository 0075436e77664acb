// The k8s-pod backend's calls on pods (core/v1): create one, wait for it to
// run (a watch from the resourceVersion read, started again from a fresh
// read on 410 Gone), delete it, and list the ones a label selects (the
// sweep). Each failure names the pod and what the API server said.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/http.h"
#include "core/result.h"
#include "sandbox/k8s/k8s_cluster.h"

namespace lw::sandbox::k8s {

// POST the pod. SANDBOX_CAPABILITY_INSUFFICIENT when admission forbids it
// (403: a RuntimeClass that is missing, Pod Security), SANDBOX_LAUNCH_FAILED
// when the server refuses it otherwise (422 Invalid, 409 AlreadyExists),
// SANDBOX_BACKEND_UNAVAILABLE when it does not answer.
Result<boost::json::object> createPod(http::Transport& transport, const ClusterEndpoint& endpoint,
                                      const boost::json::object& pod);

// Waits until every container of the pod runs. SANDBOX_LAUNCH_FAILED when
// the pod ends or is deleted first, or `deadline` passes (its last phase
// and container states in the message).
Result<boost::json::object> waitRunning(http::Transport& transport, const ClusterEndpoint& endpoint,
                                        const std::string& ns, const std::string& name,
                                        std::chrono::steady_clock::time_point deadline);

// DELETE the pod with no grace period; done when it is gone (404 included).
Status deletePod(http::Transport& transport, const ClusterEndpoint& endpoint, const std::string& ns,
                 const std::string& name);

// The names of the pods in `ns` that `labelSelector` ("k=v,k2=v2") selects.
Result<std::vector<std::string>> listPods(http::Transport& transport, const ClusterEndpoint& endpoint,
                                          const std::string& ns, const std::string& labelSelector);

// Whether every container of `pod` runs, from its status.
bool allContainersRunning(const boost::json::object& pod);

}  // namespace lw::sandbox::k8s
