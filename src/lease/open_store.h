// The one place that turns the lease store configuration (host config
// `leases:`, or `loopwright lease --store/--etcd`) into a store; the run and
// the CLI both open theirs here, so that they always share one.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "lease/lease.h"
#include "lease/local_store.h"
#include "policy/model/host_config.h"

namespace lw::lease {

// The configured store: the local one in `config.localDir` (default
// <stateDir>/leases), etcd at `config.endpoint` under `config.prefix`, or
// Kubernetes Leases through `config.kubeconfig` (empty: the in-cluster
// service account; USAGE_ERROR or LEASE_UNAVAILABLE when neither gives
// credentials and a namespace).
// Nothing is contacted until the first operation. The endpoint and prefix
// are checked where they are read (policy/model/host_config.h: the host config
// loader, the CLI); the transport refuses plain http off this machine anyway.
Result<std::unique_ptr<Store>> openStore(const LeaseStoreConfig& config, const std::filesystem::path& stateDir,
                                         Clock nowMs = systemNowMs);

// Every record of the configured store in name order, unreadable ones
// included (what `loopwright lease list` prints).
Result<std::vector<ListedRecord>> surveyStore(const LeaseStoreConfig& config, const std::filesystem::path& stateDir);

// The store in words: its directory, "etcd <endpoint> <prefix>", or
// "kubernetes <kubeconfig|in-cluster> [namespace <ns>]".
std::string storeName(const LeaseStoreConfig& config, const std::filesystem::path& stateDir);

}  // namespace lw::lease
