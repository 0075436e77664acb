#include "sandbox/k8s/k8s_cluster.h"

#include <boost/json/parse.hpp>

namespace lw::sandbox::k8s {

namespace json = boost::json;

std::string messageSuffix(const ApiAnswer& answer) {
  const json::value* message = answer.body.if_contains("message");
  return message != nullptr && message->is_string() ? ": " + std::string(message->as_string()) : "";
}

namespace {

Error apiUnavailable(const ClusterEndpoint& endpoint, const std::string& why) {
  return makeError(ErrorCode::SandboxBackendUnavailable, why,
                   "check that the API server answers and that the runner's credentials are valid "
                   "(docs/kubernetes.md); a step never starts unchecked",
                   endpoint.server);
}

}  // namespace

Result<http::Response> callApiRaw(http::Transport& transport, const ClusterEndpoint& endpoint,
                                  const std::string& method, const std::string& path, const std::string& body) {
  auto token = endpoint.token();
  if (!token) return apiUnavailable(endpoint, token.error().message);
  http::Request request;
  request.method = method;
  request.url = endpoint.server + path;
  request.headers = {{"Authorization", "Bearer " + *token}, {"Accept", "application/json"}};
  if (!body.empty()) request.headers.emplace_back("Content-Type", "application/json");
  request.body = body;
  request.timeout = endpoint.timeout;
  http::Response response = transport.send(request);
  if (!response.answered())
    return apiUnavailable(endpoint, "the Kubernetes API server at " + endpoint.server + " did not answer " + method +
                                        " " + path + " (" + std::string(http::toString(response.failure)) + ": " +
                                        response.error + ")");
  return response;
}

Result<ApiAnswer> callApi(http::Transport& transport, const ClusterEndpoint& endpoint, const std::string& method,
                          const std::string& path, const std::string& body) {
  auto response = callApiRaw(transport, endpoint, method, path, body);
  if (!response) return response.error();
  boost::system::error_code ec;
  json::value parsed = json::parse(response->body, ec);
  if (ec || !parsed.is_object())
    return apiUnavailable(endpoint, "the Kubernetes API server answered " + method + " " + path + " with HTTP " +
                                        std::to_string(response->status) + " and no JSON object");
  return ApiAnswer{response->status, std::move(parsed.as_object())};
}

namespace {

Error unavailable(const ClusterEndpoint& endpoint, const std::string& message) {
  return makeError(ErrorCode::SandboxBackendUnavailable, message,
                   "check that the API server answers and that the runner may get runtimeclasses and list "
                   "networkpolicies (docs/kubernetes.md); no step starts until it can be checked",
                   endpoint.server);
}

Result<ApiAnswer> get(http::Transport& transport, const ClusterEndpoint& endpoint, const std::string& path) {
  auto answer = callApi(transport, endpoint, "GET", path);
  if (!answer) return answer.error();
  if (answer->status != 200 && answer->status != 404)
    return unavailable(endpoint, "the Kubernetes API server answered GET " + path + " with HTTP " +
                                     std::to_string(answer->status) + messageSuffix(*answer));
  return answer;
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
