#include "lease/transitions.h"

#include <ctime>

namespace lw::lease {
namespace {

std::string tokenText(std::uint64_t token) { return "token " + std::to_string(token); }

Error unavailable(const std::string& resource, std::string message, std::string hint) {
  return makeError(ErrorCode::LeaseUnavailable, std::move(message), std::move(hint), resource);
}

Error lost(const std::string& resource, std::string message) {
  return makeError(ErrorCode::LeaseLost, std::move(message),
                   "stop acting for this resource: another holder may own it now; claim it "
                   "again to start over",
                   resource);
}

Result<Lease> claim(const std::optional<Lease>& current, const Request& r, std::int64_t nowMs) {
  const std::uint64_t last = current ? current->token : 0;
  if (current && current->phase == Phase::TearingDown)
    return unavailable(r.resource,
                       r.resource + " is being torn down by " + current->holder + " (" + tokenText(last) +
                           "); it is not claimable until released",
                       "wait for the teardown to finish; if its holder is gone, destroy the "
                       "resource by hand, then run `loopwright lease release " +
                           r.resource + " --token " + std::to_string(last) + "`");
  if (current && current->phase == Phase::Active && !isExpired(*current, nowMs))
    return unavailable(r.resource,
                       r.resource + " is held by " + current->holder + " (" + tokenText(last) + ") until " +
                           formatTimeMs(current->expiresAtMs),
                       "wait until it is released or expires; a lease is never taken over");
  return Lease{r.resource, Phase::Active, r.holder, last + 1, nowMs + r.ttlMs, nowMs};
}

// The refusal for a request made with a token that is no longer the
// resource's holder's, or nullopt when the token is current.
std::optional<Error> staleToken(const std::optional<Lease>& current, const Request& r) {
  if (!current || current->phase == Phase::Free)
    return lost(r.resource, r.resource + " is not held: " + tokenText(r.token) + " was released or never issued");
  if (current->token != r.token)
    return lost(r.resource, tokenText(r.token) + " for " + r.resource + " is stale: the current token is " +
                                std::to_string(current->token) + " (held by " + current->holder + ")");
  return std::nullopt;
}

// The refusal for renew and checkFence: only an active, unexpired lease.
std::optional<Error> notLive(const Lease& current, const Request& r, std::int64_t nowMs) {
  if (current.phase == Phase::TearingDown)
    return lost(r.resource, r.resource + " (" + tokenText(r.token) + ") is being torn down");
  if (isExpired(current, nowMs))
    return lost(r.resource, "the lease on " + r.resource + " (" + tokenText(r.token) + ") expired at " +
                                formatTimeMs(current.expiresAtMs));
  return std::nullopt;
}

Result<Lease> actForHolder(const std::optional<Lease>& current, const Request& r, std::int64_t nowMs) {
  if (auto refused = staleToken(current, r)) return *refused;
  Lease next = *current;
  if (r.kind == RequestKind::Renew || r.kind == RequestKind::CheckFence) {
    if (auto refused = notLive(next, r, nowMs)) return *refused;
    if (r.kind == RequestKind::Renew) next.expiresAtMs = nowMs + r.ttlMs;
  } else if (r.kind == RequestKind::BeginTeardown) {
    next.phase = Phase::TearingDown;
  } else {
    next = Lease{next.resource, Phase::Free, "", next.token, 0, 0};
  }
  return next;
}

}  // namespace

bool isExpired(const Lease& lease, std::int64_t nowMs) { return nowMs >= lease.expiresAtMs; }

Result<Lease> nextRecord(const std::optional<Lease>& current, const Request& request, std::int64_t nowMs) {
  if (request.kind == RequestKind::Claim) return claim(current, request, nowMs);
  return actForHolder(current, request, nowMs);
}

Result<Lease> nextSharedRecord(const std::optional<Lease>& current, const Request& request, std::int64_t nowMs,
                               std::int64_t maxClockSkewMs) {
  if (request.kind != RequestKind::Claim) return nextRecord(current, request, nowMs);
  auto next = nextRecord(current, request, nowMs - maxClockSkewMs);
  if (!next) return next;
  next->claimedAtMs = nowMs;
  next->expiresAtMs = nowMs + request.ttlMs;
  return next;
}

std::string formatTimeMs(std::int64_t ms) {
  std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char buf[40];
  std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
  std::string millis = std::to_string(1000 + ms % 1000).substr(1);
  return std::string(buf, n) + "." + millis + "Z";
}

std::string phaseName(Phase phase) {
  switch (phase) {
    case Phase::Free: return "free";
    case Phase::Active: return "active";
    case Phase::TearingDown: return "tearing-down";
  }
  return "free";
}

}  // namespace lw::lease
