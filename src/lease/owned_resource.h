// Resources created under a lease (docs/leases.md, "Resources created under
// a lease"): a sandbox or a worktree exists only while a lease says who owns
// it. Creation and destruction follow one order, so that a crash at any point
// leaves either an owned resource (reclaimed after its lease expires) or a
// resource nobody can claim until it is gone (a teardown marker), never an
// orphan that looks free.
#pragma once

#include <functional>
#include <string>

#include "core/result.h"
#include "lease/lease.h"

namespace lw::lease {

struct ResourceActions {
  // Creates the resource for the lease just claimed. Make what it creates
  // unique to `lease.token` (a path that carries it, for instance), so that
  // destroying it never touches what a later holder created.
  std::function<Status(const Lease& lease)> create;
  // Registers the ownership in the resource itself (for instance, writes the
  // token into it); may be empty. Runs after the store confirmed the lease is
  // still current (checkFence).
  std::function<Status(const Lease& lease)> registerOwnership;
  // Destroys the resource; must accept a resource that `create` made only in
  // part, or not at all.
  std::function<Status(const Lease& lease)> destroy;
};

// Claims `resource`, creates it, confirms the lease (checkFence) and
// registers ownership. When creating, confirming or registering fails, the
// just-created resource is torn down (marker, destroy, release; destroyed
// even when the lease was lost meanwhile, as it is unique to the token) and
// that first error is returned: a resource whose ownership cannot be
// registered does not survive (fail closed). The claim's own refusal
// (LEASE_UNAVAILABLE) comes back untouched, and nothing is created.
Result<Lease> claimAndCreate(Store& store, const std::string& resource, const std::string& holder, Ttl ttl,
                             const ResourceActions& actions);

// Tears down a resource held under `held`: the teardown marker first (from
// then on nobody can claim it, expired or not), then `destroy`, then release.
// When `destroy` fails the marker stays and its error is returned: the
// resource stays unclaimable until someone destroys it and releases the
// lease by hand. LEASE_LOST when `held` is no longer the current lease
// (nothing is destroyed: it may be another holder's now).
Status tearDown(Store& store, const Lease& held, const std::function<Status(const Lease& lease)>& destroy);

}  // namespace lw::lease
