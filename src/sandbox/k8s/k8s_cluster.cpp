#include "sandbox/k8s/k8s_cluster.h"

#include <boost/json/parse.hpp>

namespace lw::sandbox::k8s {
namespace {

namespace json = boost::json;

struct Answer {
  int status = 0;
  json::object body;
};

Error unavailable(const ClusterEndpoint& endpoint, const std::string& message) {
  return makeError(ErrorCode::SandboxBackendUnavailable, message,
                   "check that the API server answers and that the runner may get runtimeclasses and list "
                   "networkpolicies (docs/kubernetes.md); no step starts until it can be checked",
                   endpoint.server);
}

Result<Answer> get(http::Transport& transport, const ClusterEndpoint& endpoint, const std::string& path) {
  auto token = endpoint.token();
  if (!token) return unavailable(endpoint, token.error().message);
  http::Request request;
  request.url = endpoint.server + path;
  request.headers = {{"Authorization", "Bearer " + *token}, {"Accept", "application/json"}};
  request.timeout = endpoint.timeout;
  http::Response response = transport.send(request);
  if (!response.answered())
    return unavailable(endpoint, "the Kubernetes API server at " + endpoint.server + " did not answer GET " + path +
                                     " (" + std::string(http::toString(response.failure)) + ": " + response.error +
                                     ")");
  boost::system::error_code ec;
  json::value body = json::parse(response.body, ec);
  if (ec || !body.is_object() || (response.status != 200 && response.status != 404)) {
    const json::value* message = !ec && body.is_object() ? body.as_object().if_contains("message") : nullptr;
    return unavailable(
        endpoint,
        "the Kubernetes API server answered GET " + path + " with HTTP " + std::to_string(response.status) +
            (message != nullptr && message->is_string() ? ": " + std::string(message->as_string()) : std::string()));
  }
  return Answer{response.status, std::move(body.as_object())};
}

}  // namespace

Result<Preflight> preflightFromCluster(http::Transport& transport, const ClusterEndpoint& endpoint,
                                       const std::string& runtimeClassName, const std::string& ns,
                                       const json::object& podLabels) {
  PreflightFacts facts{runtimeClassName, std::nullopt, ns, {}, podLabels};
  auto rc = get(transport, endpoint, "/apis/node.k8s.io/v1/runtimeclasses/" + http::percentEncode(runtimeClassName));
  if (!rc) return rc.error();
  if (rc->status == 200) facts.runtimeClass = std::move(rc->body);
  auto policies =
      get(transport, endpoint, "/apis/networking.k8s.io/v1/namespaces/" + http::percentEncode(ns) + "/networkpolicies");
  if (!policies) return policies.error();
  const json::value* items = policies->body.if_contains("items");
  if (policies->status != 200 || items == nullptr || !items->is_array())
    return unavailable(endpoint,
                       "the Kubernetes API server answered the list of NetworkPolicies in " + ns + " without items");
  facts.networkPolicies = items->as_array();
  return checkPreflight(facts);
}

}  // namespace lw::sandbox::k8s
