// The Kubernetes lease store (docs/leases.md, "Stores: local, etcd and
// Kubernetes"): one coordination.k8s.io/v1 Lease per resource in one
// namespace, holding the record as lease/k8s_lease_json.h maps it. Every
// operation reads the object and its resourceVersion, decides with
// lease/transitions.h, and writes with a create (absent) or a replace
// carrying that resourceVersion; the API server's 409 (AlreadyExists,
// Conflict) is a lost race: read and decide again, a bounded number of times.
// Runner fleets on one cluster share it without a lock service of their own.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/http.h"
#include "core/result.h"
#include "lease/k8s_access.h"
#include "lease/lease.h"
#include "lease/store_support.h"

namespace lw::lease {

struct K8sStoreOptions {
  k8s::Access access;
  std::string ns;                          // the namespace of the Lease objects
  std::string namePrefix = "loopwright-";  // object names: k8s::objectName
  // Wall clocks of different machines disagree: another holder's lease
  // counts as expired only this long after its expiry.
  std::int64_t maxClockSkewMs = 2000;
  int maxAttempts = 16;  // reads and writes per operation before "contended"
  std::chrono::milliseconds requestTimeout{5000};
};

class K8sStore : public RecordStore {
 public:
  // `transport` must outlive the store.
  K8sStore(http::Transport& transport, K8sStoreOptions options, Clock nowMs);

  // Every loopwright Lease of the namespace under the name prefix, in
  // resource order, unreadable ones included; `file` is "<namespace>/<name>".
  Result<std::vector<ListedRecord>> survey() override;

 private:
  // Every operation fails with LEASE_UNAVAILABLE, never an assumed success,
  // when the API server does not answer, refuses the credentials (401, 403),
  // answers any status the operation does not expect or a body it cannot
  // read, when the object is not a lease record (nothing is written over
  // it), or when its write loses maxAttempts races in a row (contended).
  Result<Lease> transact(const Request& request) override;
  struct Observed;
  struct Answer {
    int status = 0;
    boost::json::object body;
  };
  Result<Answer> exchange(const std::string& method, const std::string& path, const std::string& body);
  Result<Observed> read(const std::string& resource);
  Result<bool> writeIfUnchanged(const Observed& current, const Lease& next);
  std::string collectionPath() const;
  Error unavailable(std::string message) const;

  http::Transport& transport_;
  K8sStoreOptions options_;
  Clock nowMs_;
};

// A Kubernetes store with its own libcurl transport: no redirects, no proxy,
// the access's CA, plain http only to this machine (core/http_policy.h).
std::unique_ptr<K8sStore> openK8sStore(K8sStoreOptions options, Clock nowMs = systemNowMs);

}  // namespace lw::lease
