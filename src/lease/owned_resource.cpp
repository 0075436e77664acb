#include "lease/owned_resource.h"

namespace lw::lease {
namespace {

// Fence check and the caller's registration, in that order.
Status confirmOwnership(Store& store, const Lease& lease, const ResourceActions& actions) {
  if (auto fenced = store.checkFence(lease); !fenced) return fenced;
  if (actions.registerOwnership) return actions.registerOwnership(lease);
  return Ok{};
}

// Fail closed: what was created under `lease` goes. Without the marker (the
// lease was lost meanwhile) it is destroyed all the same, since `create`
// made it unique to this token; the lease itself is then left alone.
void discardCreated(Store& store, const Lease& lease, const ResourceActions& actions) {
  auto marked = store.beginTeardown(lease);
  Status destroyed = actions.destroy(marked ? *marked : lease);
  if (marked && destroyed) (void)store.release(*marked);
}

}  // namespace

Result<Lease> claimAndCreate(Store& store, const std::string& resource, const std::string& holder, Ttl ttl,
                             const ResourceActions& actions) {
  auto lease = store.claim(resource, holder, ttl);
  if (!lease) return lease;
  Status made = actions.create(*lease);
  if (made) made = confirmOwnership(store, *lease, actions);
  if (made) return lease;
  discardCreated(store, *lease, actions);
  return made.error();
}

Status tearDown(Store& store, const Lease& held, const std::function<Status(const Lease& lease)>& destroy) {
  auto marked = store.beginTeardown(held);
  if (!marked) return marked.error();
  if (auto destroyed = destroy(*marked); !destroyed) return destroyed;
  return store.release(*marked);
}

}  // namespace lw::lease
