// The k8s-pod backend's reads of the cluster before a step starts: the
// RuntimeClass (GET /apis/node.k8s.io/v1/runtimeclasses/{name}) and the
// namespace's NetworkPolicies (GET /apis/networking.k8s.io/v1/namespaces/
// {ns}/networkpolicies), judged by k8s_preflight.h. Credentials come in as a
// token source so that the lease store's (lease/k8s_access.h) can be shared.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include <boost/json/object.hpp>

#include "core/http.h"
#include "core/result.h"
#include "sandbox/k8s/k8s_preflight.h"

namespace lw::sandbox::k8s {

struct ClusterEndpoint {
  std::string server;                          // "https://10.0.0.1:443", no path
  std::function<Result<std::string>()> token;  // the bearer token to send now
  std::chrono::milliseconds timeout{5000};
  // The CAs an https server is verified against (as http::Policy's): the
  // curl transport of the caller has its own; exec's WebSocket uses these.
  std::string caFile = {};
  std::string caPem = {};
};

// One exchange with the API server: its status and JSON body, whatever the
// status. SANDBOX_BACKEND_UNAVAILABLE when there is no token, no answer, or
// an answer that is not a JSON object.
struct ApiAnswer {
  int status = 0;
  boost::json::object body;
};
// The same, the body as sent (a watch's events, one JSON object a line).
Result<http::Response> callApiRaw(http::Transport& transport, const ClusterEndpoint& endpoint,
                                  const std::string& method, const std::string& path, const std::string& body = "");
Result<ApiAnswer> callApi(http::Transport& transport, const ClusterEndpoint& endpoint, const std::string& method,
                          const std::string& path, const std::string& body = "");
// ": <the Status's message>", or "" when the answer has none.
std::string messageSuffix(const ApiAnswer& answer);

// The pre-flight verdict from what the API server answers. Refuses with
// SANDBOX_BACKEND_UNAVAILABLE when it does not answer, refuses the
// credentials (401, 403) or answers anything but 200 (404 for the
// RuntimeClass: it does not exist); with checkPreflight's refusal otherwise.
// Never a verdict from an answer it could not read.
Result<Preflight> preflightFromCluster(http::Transport& transport, const ClusterEndpoint& endpoint,
                                       const std::string& runtimeClassName, const std::string& ns,
                                       const boost::json::object& podLabels);

}  // namespace lw::sandbox::k8s
