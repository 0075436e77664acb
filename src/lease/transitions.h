// The lease state machine (docs/leases.md), pure: the current record and the
// caller's request in, the next record or the refusal out. Stores read and
// write; only this file decides. No clock, no files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "lease/lease.h"

namespace lw::lease {

enum class RequestKind { Claim, Renew, BeginTeardown, Release, CheckFence };

// What a caller asks of one resource. `resource` and `holder` matter for a
// claim; `token` for every other request (the fencing token the caller holds).
struct Request {
  RequestKind kind = RequestKind::Claim;
  std::string resource;
  std::string holder;
  std::uint64_t token = 0;
  std::int64_t ttlMs = 0;  // claim and renew: how long from now
};

// Whether an active lease has run out at `nowMs` (an expiry is exclusive:
// at expiresAtMs the lease is already over).
bool isExpired(const Lease& lease, std::int64_t nowMs);

// The record after `request` at `nowMs`, given the current record (nullopt:
// the store has none, a free resource that was never claimed). The returned
// record is what the store writes; a CheckFence returns the current record
// unchanged (nothing to write). Refusals:
//   claim: LEASE_UNAVAILABLE (active and unexpired: who holds it and until
//          when; tearing down, expired or not);
//   renew, beginTeardown, release, checkFence: LEASE_LOST (the token is not
//          the current one, the resource is free, or, for renew and
//          checkFence, the lease expired or is being torn down).
// A free record keeps its last token, so a claim always gets a token no
// earlier holder ever had.
Result<Lease> nextRecord(const std::optional<Lease>& current, const Request& request, std::int64_t nowMs);

// nextRecord for a store shared between machines (etcd, Kubernetes): the
// holder's clock may run behind ours, so its lease is over only
// `maxClockSkewMs` after the expiry it wrote; a new lease runs from our now.
Result<Lease> nextSharedRecord(const std::optional<Lease>& current, const Request& request, std::int64_t nowMs,
                               std::int64_t maxClockSkewMs);

// "2024-05-01T12:00:00.250Z" for a wall-clock time in milliseconds: how
// refusals and `loopwright lease list` name an expiry.
std::string formatTimeMs(std::int64_t ms);

// "free", "active", "tearing-down": the phase as records and the CLI name it.
std::string phaseName(Phase phase);

}  // namespace lw::lease
