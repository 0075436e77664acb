// What every lease store shares around the state machine (lease/transitions.h):
// the clock, resource names, the request a holder's operation makes, and the
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

// The request the holder of `held` makes for a renew, teardown, release or
// fence check.
Request holderRequest(RequestKind kind, const Lease& held, Ttl ttl = Ttl{0});

// The outcome of an operation whose resulting record the caller does not need.
Status statusOf(const Result<Lease>& r);

// One record as `loopwright lease list` shows it: the lease, or why its
// record cannot be read (a corrupt record, which every operation refuses).
struct ListedRecord {
  std::string resource;
  std::string file;  // where it is: a file of the local store, a key in etcd
  std::optional<Lease> lease;
  std::optional<Error> unreadable;
};

// The leases of a survey; fails with the first unreadable record's error
// (Store::list fails closed).
Result<std::vector<Lease>> leasesOf(std::vector<ListedRecord> records);

}  // namespace lw::lease
