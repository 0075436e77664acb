// Ownership leases (docs/leases.md): who holds a sandbox or a worktree, for
// how long, and with which fencing token. One state machine
//
//   free -> active(holder, token, expiry) -> tearing-down -> free
//
// over interchangeable stores (a local file with flock, etcd v3, Kubernetes
// coordination.k8s.io/v1 Leases), behind the same interface. The rules:
// claim only when free or expired, never an unconditional takeover; a
// resource being torn down is not claimable; a record that cannot be read
// fails closed; the fencing token grows with every claim and is checked on
// every write that acts for the holder.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"

namespace lw::lease {

enum class Phase { Free, Active, TearingDown };

// One resource's ownership as the store holds it. Times are wall-clock
// milliseconds since the epoch: holders in other processes (or on other
// machines, for a shared store) compare the same expiry.
struct Lease {
  std::string resource;  // [A-Za-z0-9._-], 1..128: "worktree.<run>.<stage>.<step>"
  Phase phase = Phase::Free;
  std::string holder;       // who holds it, in words ("run 12 step fmt pid 4711 on host-a")
  std::uint64_t token = 0;  // the fencing token: strictly increasing per resource, never reused
  std::int64_t expiresAtMs = 0;
  std::int64_t claimedAtMs = 0;
};

using Ttl = std::chrono::milliseconds;

// A store of leases. Every operation is atomic against every other process
// using the same store. Errors: LEASE_UNAVAILABLE (held by another holder and
// not expired, tearing down, or its record unreadable: fail closed),
// LEASE_LOST (the caller's token is no longer the current one, or its lease
// expired), IO_ERROR.
class Store {
 public:
  virtual ~Store() = default;
  // free, or active and expired -> active(holder, token + 1, now + ttl).
  virtual Result<Lease> claim(const std::string& resource, const std::string& holder, Ttl ttl) = 0;
  // The holder's own active lease, not expired -> its expiry moved to now + ttl.
  virtual Result<Lease> renew(const Lease& held, Ttl ttl) = 0;
  // The holder's lease -> tearing-down (the marker: nobody may claim it
  // until release), whether or not it expired, as long as nobody claimed it since.
  virtual Result<Lease> beginTeardown(const Lease& held) = 0;
  // The holder's lease (active or tearing down) -> free.
  virtual Status release(const Lease& held) = 0;
  // Succeeds only while `held.token` is the resource's current token and the
  // lease is active and unexpired: what every write for the holder checks first.
  virtual Status checkFence(const Lease& held) = 0;
  // Every resource the store knows, in name order.
  virtual Result<std::vector<Lease>> list() = 0;
};

}  // namespace lw::lease
