#include "lease/open_store.h"

#include "lease/etcd_store.h"
#include "lease/k8s_store.h"

namespace lw::lease {
namespace {

std::filesystem::path localDir(const LeaseStoreConfig& config, const std::filesystem::path& stateDir) {
  return config.localDir.empty() ? stateDir / "leases" : std::filesystem::path(config.localDir);
}

EtcdStoreOptions etcdOptions(const LeaseStoreConfig& config) {
  EtcdStoreOptions options;
  options.endpoint = config.endpoint;
  options.prefix = config.prefix;
  options.maxClockSkewMs = config.maxClockSkewMs;
  return options;
}

// The Kubernetes store's options: the kubeconfig's access (or the
// in-cluster service account's) and the namespace the config names, else
// the access's own.
Result<K8sStoreOptions> k8sOptions(const LeaseStoreConfig& config) {
  auto access = config.kubeconfig.empty() ? k8s::inClusterAccessFromEnvironment()
                                          : k8s::kubeconfigAccessFromFile(config.kubeconfig, config.kubeContext);
  if (!access) return access.error();
  K8sStoreOptions options;
  options.ns = config.kubeNamespace.empty() ? access->ns : config.kubeNamespace;
  if (options.ns.empty())
    return makeError(ErrorCode::UsageError, "the Kubernetes lease store has no namespace",
                     "set leases.namespace in the host config (docs/host-config.md)", access->source);
  options.access = std::move(*access);
  options.namePrefix = config.namePrefix;
  options.maxClockSkewMs = config.maxClockSkewMs;
  return options;
}

}  // namespace

Result<std::unique_ptr<Store>> openStore(const LeaseStoreConfig& config, const std::filesystem::path& stateDir,
                                         Clock nowMs) {
  if (config.store == LeaseStoreKind::Local) return openLocalStore(localDir(config, stateDir), std::move(nowMs));
  if (config.store == LeaseStoreKind::Kubernetes) {
    auto options = k8sOptions(config);
    if (!options) return options.error();
    return std::unique_ptr<Store>(openK8sStore(std::move(*options), std::move(nowMs)));
  }
  return std::unique_ptr<Store>(openEtcdStore(etcdOptions(config), std::move(nowMs)));
}

Result<std::vector<ListedRecord>> surveyStore(const LeaseStoreConfig& config, const std::filesystem::path& stateDir) {
  if (config.store == LeaseStoreKind::Local) return LocalStore(localDir(config, stateDir), systemNowMs).survey();
  if (config.store == LeaseStoreKind::Kubernetes) {
    auto options = k8sOptions(config);
    if (!options) return options.error();
    return openK8sStore(std::move(*options))->survey();
  }
  return openEtcdStore(etcdOptions(config))->survey();
}

std::string storeName(const LeaseStoreConfig& config, const std::filesystem::path& stateDir) {
  if (config.store == LeaseStoreKind::Local) return localDir(config, stateDir).string();
  if (config.store == LeaseStoreKind::Kubernetes)
    return "kubernetes " + (config.kubeconfig.empty() ? std::string("in-cluster") : config.kubeconfig) +
           (config.kubeNamespace.empty() ? "" : " namespace " + config.kubeNamespace);
  return "etcd " + config.endpoint + " " + config.prefix;
}

}  // namespace lw::lease
