#include "lease/open_store.h"

#include "lease/etcd_store.h"

namespace lw::lease {
namespace {

std::filesystem::path localDir(const LeaseStoreConfig& config,
                               const std::filesystem::path& stateDir) {
  return config.localDir.empty() ? stateDir / "leases" : std::filesystem::path(config.localDir);
}

EtcdStoreOptions etcdOptions(const LeaseStoreConfig& config) {
  EtcdStoreOptions options;
  options.endpoint = config.endpoint;
  options.prefix = config.prefix;
  options.maxClockSkewMs = config.maxClockSkewMs;
  return options;
}

}  // namespace

Result<std::unique_ptr<Store>> openStore(const LeaseStoreConfig& config,
                                         const std::filesystem::path& stateDir, Clock nowMs) {
  if (config.store == LeaseStoreKind::Local)
    return openLocalStore(localDir(config, stateDir), std::move(nowMs));
  return std::unique_ptr<Store>(openEtcdStore(etcdOptions(config), std::move(nowMs)));
}

Result<std::vector<ListedRecord>> surveyStore(const LeaseStoreConfig& config,
                                              const std::filesystem::path& stateDir) {
  if (config.store == LeaseStoreKind::Local)
    return LocalStore(localDir(config, stateDir), systemNowMs).survey();
  return openEtcdStore(etcdOptions(config))->survey();
}

std::string storeName(const LeaseStoreConfig& config, const std::filesystem::path& stateDir) {
  if (config.store == LeaseStoreKind::Local) return localDir(config, stateDir).string();
  return "etcd " + config.endpoint + " " + config.prefix;
}

}  // namespace lw::lease
