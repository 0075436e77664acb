#include "host/k8s_pod_setup.h"

#include "core/http_curl.h"
#include "host/sha256.h"
#include "lease/k8s_access.h"
#include "sandbox/k8s/k8s_pods_api.h"
#include "sandbox/probe_cache.h"
#include "sandbox/process/step_env.h"

namespace lw::host {
namespace {

Result<lease::k8s::Access> accessFor(const K8sPodHostConfig& k) {
  if (!k.kubeconfig.empty()) return lease::k8s::kubeconfigAccessFromFile(k.kubeconfig, k.context);
  return lease::k8s::inClusterAccessFromEnvironment();
}

sandbox::k8s::K8sPodConfig configFor(const K8sPodHostConfig& k, const std::optional<std::string>& job) {
  sandbox::k8s::K8sPodConfig c;
  c.ns = k.ns;
  c.runtimeClassName = k.runtimeClassName;
  c.image = k.image;
  c.runLabel = k8sJobLabel(job);
  auto access = accessFor(k);
  if (!access) {
    const Error why = access.error();
    c.endpoint.server = "https://kubernetes.invalid";
    c.endpoint.token = [why]() -> Result<std::string> { return why; };
    c.transport = std::make_shared<http::CurlTransport>(http::Policy{});
    return c;
  }
  c.endpoint.server = access->server;
  c.endpoint.caFile = access->caFile;
  c.endpoint.caPem = access->caPem;
  c.endpoint.token = [a = *access] { return lease::k8s::bearerToken(a); };
  c.transport = std::make_shared<http::CurlTransport>(lease::k8s::apiHttpPolicy(*access));
  return c;
}

}  // namespace

std::string k8sJobLabel(const std::optional<std::string>& job) {
  return job && !job->empty() ? "job-" + sha256Hex(*job).substr(0, 16) : "local";
}

sandbox::RegistryOptions registryOptionsFor(const HostConfig& host, const Environment& env) {
  sandbox::RegistryOptions options;
  if (host.kubernetes) {
    options.kubernetes = configFor(*host.kubernetes, sandbox::jobMarker(env));
    options.kubernetes->cacheFile = sandbox::probeCacheFile(env, BackendId::K8sPod);
  }
  return options;
}

Result<std::vector<std::string>> sweepK8sPods(const std::optional<K8sPodHostConfig>& cluster, const std::string& job) {
  if (!cluster) return std::vector<std::string>{};
  sandbox::k8s::K8sPodConfig c = configFor(*cluster, job);
  auto names = sandbox::k8s::listPods(*c.transport, c.endpoint, c.ns, sandbox::k8s::sweepSelector(c.runLabel));
  if (!names) return names.error();
  for (const std::string& name : *names)
    if (auto gone = sandbox::k8s::deletePod(*c.transport, c.endpoint, c.ns, name); !gone) return gone.error();
  return *names;
}

}  // namespace lw::host
