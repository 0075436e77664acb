// Negotiation (README, "What happens in a run"): the preferred backends are
// probed in order and the first that gives the policy's isolation level,
// enforces every required capability and the network mode, and is allowed by
// the policy, wins. Nothing else is ever chosen: no
// fallback, no partial credit. Pure apart from the probes it asks for.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "policy/model/effective_policy.h"
#include "sandbox/backend.h"

namespace lw::sandbox {

struct NegotiationRequest {
  EffectiveSandbox policy;
  bool explicitImage = false;  // `sandbox exec --image`: docker may run it
};

struct Refusal {
  BackendId backend = BackendId::LinuxBwrap;
  bool runsHere = false;  // available on this host (refused for what it lacks)
  std::string reason;
};

struct Negotiated {
  BackendId backend = BackendId::LinuxBwrap;
  std::vector<Capability> enforced;     // every capability the winner enforces here
  Isolation isolation = Isolation::L1;  // the winner's level here, as its probe observed it
  std::vector<Refusal> refused;         // backends tried before it, and why
};

// The probe of one backend, or null when this build has none for it.
using ProbeFor = std::function<const ProbeReport*(BackendId)>;

// Fails closed: ISOLATION_UNAVAILABLE when no backend here gives the
// isolation level asked for (L3 in this version, nothing probed; L2 when
// docker is not listed, cannot reach its engine or has no pinned runtime
// profile; the message names the level and what is missing), never a lower
// level instead; SANDBOX_BACKEND_UNAVAILABLE when no listed backend can run
// here, SANDBOX_CAPABILITY_INSUFFICIENT when some can but none gives what is
// required; always one diagnostic per listed backend saying why.
// Backends after the winner are not probed.
Result<Negotiated> negotiate(const NegotiationRequest& request, const ProbeFor& probeFor);

}  // namespace lw::sandbox
