// The local lease store (docs/leases.md, "Store layout"): one directory,
// one record file per resource (<dir>/<resource>.json) and one lock file
// beside it (<dir>/<resource>.lock). Every operation locks the resource's
// lock file (flock), reads the record, decides with lease/transitions.h,
// and writes the next record to a temporary file that is synced and renamed
// over the old one, then syncs the directory: a crash leaves either record,
// never half of one. Processes of one machine share it; for runners that
// share work across machines, a store of the same interface over etcd or
// Kubernetes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "lease/lease.h"
#include "lease/store_support.h"

namespace lw::lease {

class LocalStore : public RecordStore {
 public:
  LocalStore(std::filesystem::path dir, Clock nowMs);

  // Every record file in name order, corrupt ones included.
  Result<std::vector<ListedRecord>> survey() override;

 private:
  // Locks the resource's record, reads, decides and writes what changed.
  Result<Lease> transact(const Request& request) override;

  std::filesystem::path dir_;
  Clock nowMs_;
};

// The store in `dir`. Nothing is touched until the first operation, which
// creates the directory (mode 0700) when missing. Every operation refuses,
// with LEASE_UNAVAILABLE, a store directory that is a symlink, not a
// directory, owned by another user, or writable by group or others: whoever
// can write there can forge ownership. Thread-safe; the clock must be too.
std::unique_ptr<Store> openLocalStore(const std::filesystem::path& dir, Clock nowMs = systemNowMs);

}  // namespace lw::lease
