// The etcd lease store (docs/leases.md, "Stores: local and etcd"): one key
// per resource, <prefix><resource>, holding exactly the record of
// lease/lease_record.h, through etcd v3's JSON gateway (POST /v3/kv/range,
// /v3/kv/txn). Every operation reads the key and its mod revision, decides
// with lease/transitions.h, and writes in a txn that applies only if the key
// is unchanged since the read; a lost compare reads and decides again, a
// bounded number of times. Runners on several machines share it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/http.h"
#include "core/result.h"
#include "lease/lease.h"
#include "lease/store_support.h"
#include "lease/transitions.h"

namespace lw::lease {

struct EtcdStoreOptions {
  std::string endpoint = "http://127.0.0.1:2379";  // the gateway's base URL, no path
  std::string prefix = "/loopwright/leases/";
  // Wall clocks of different machines disagree: another holder's lease
  // counts as expired only this long after its expiry.
  std::int64_t maxClockSkewMs = 2000;
  int maxAttempts = 16;  // reads and txns per operation before "contended"
  std::chrono::milliseconds requestTimeout{5000};
};

class EtcdStore : public RecordStore {
 public:
  // `transport` must outlive the store.
  EtcdStore(http::Transport& transport, EtcdStoreOptions options, Clock nowMs);

  // Every key under the prefix in key order, unreadable ones included;
  // `file` is the key.
  Result<std::vector<ListedRecord>> survey() override;

 private:
  // Every operation fails with LEASE_UNAVAILABLE, never an assumed success,
  // when the gateway does not answer, answers with a status other than 200
  // or with JSON it cannot read, when the key's value is not a lease record
  // (nothing is written over it), or when its compare is lost maxAttempts
  // times in a row (contended).
  Result<Lease> transact(const Request& request) override;
  struct Observed;
  Result<std::string> post(const std::string& path, std::string body);
  Result<Observed> read(const std::string& resource);
  Result<bool> putIfUnchanged(const Observed& current, const Lease& next);
  ListedRecord listed(const std::string& key, const std::string& value) const;

  http::Transport& transport_;
  EtcdStoreOptions options_;
  Clock nowMs_;
};

// An etcd store with its own libcurl transport: no redirects, no proxy, plain
// http only to this machine (core/http_policy.h).
std::unique_ptr<EtcdStore> openEtcdStore(EtcdStoreOptions options, Clock nowMs = systemNowMs);

}  // namespace lw::lease
