// What every lease store shares around the state machine (lease/transitions.h):
// the clock, resource names, the operations as requests (RecordStore), and the
// listing `loopwright lease list` prints. The local and etcd stores differ
// only in how they read and write a record.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "lease/lease.h"
#include "lease/transitions.h"

namespace lw::lease {

// Wall-clock milliseconds since the epoch; injected so that tests expire
// leases without sleeping.
using Clock = std::function<std::int64_t()>;
std::int64_t systemNowMs();

// USAGE_ERROR unless `resource` is 1..128 of [A-Za-z0-9._-] and does not
// start with a dot (a name is a file name in the local store and a key in
// etcd: no paths, no hidden files).
Status validateResourceName(const std::string& resource);

// One record as `loopwright lease list` shows it: the lease, or why its
// record cannot be read (a corrupt record, which every operation refuses).
struct ListedRecord {
  std::string resource;
  std::string file;  // where it is: a file of the local store, a key in etcd
  std::optional<Lease> lease;
  std::optional<Error> unreadable;
};

// A store whose every operation is one Request decided by the state machine
// against the record as read (transitions.h). The local and the etcd store
// differ only in how one request is carried out on a record, atomically, and
// how the records are listed; everything else is here, once.
class RecordStore : public Store {
 public:
  Result<Lease> claim(const std::string& resource, const std::string& holder, Ttl ttl) final;
  Result<Lease> renew(const Lease& held, Ttl ttl) final;
  Result<Lease> beginTeardown(const Lease& held) final;
  Status release(const Lease& held) final;
  Status checkFence(const Lease& held) final;  // a read and a decision: nothing is written
  // Fails with LEASE_UNAVAILABLE naming the record when any is unreadable.
  Result<std::vector<Lease>> list() final;

  // Every record in name order, unreadable ones included (for the CLI).
  virtual Result<std::vector<ListedRecord>> survey() = 0;

 protected:
  // Reads the record, decides (nextRecord) and, unless the request is a
  // fence check, writes what changed, all as one atomic step. The
  // request's resource is a valid name.
  virtual Result<Lease> transact(const Request& request) = 0;

 private:
  Result<Lease> named(const Request& request);  // USAGE_ERROR for a bad name, else transact
};

}  // namespace lw::lease
