#include "sandbox/negotiate.h"

#include "policy/model/isolation.h"

namespace lw::sandbox {
namespace {

std::string statusWords(const SupportStatus& s) {
  return std::string(toString(s.support)) + (s.reason.empty() ? "" : " (" + s.reason + ")");
}

// Reasons the policy forbids a backend, before any probe; the level first,
// since nothing else can make up for it.
std::string policyRefusal(BackendId id, const NegotiationRequest& req) {
  const EffectiveSandbox& p = req.policy;
  if (static_cast<int>(isolationOf(id)) < static_cast<int>(p.minIsolation)) {
    return "provides isolation " + std::string(toString(isolationOf(id))) + ", the policy requires at least " +
           std::string(toString(p.minIsolation));
  }
  if (id == BackendId::DirectDedicated && !p.allowDedicatedDirectOverride) {
    return "direct-dedicated gives no isolation and is allowed only with "
           "allowDedicatedDirectOverride";
  }
  if (id == BackendId::Docker && !p.runtimeProfile && !req.explicitImage) {
    return "docker runs only a runtime profile pinned by the host admin or an explicit --image";
  }
  return {};
}

std::string lacks(const ProbeReport& r, const EffectiveSandbox& p) {
  std::string why;
  auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  for (Capability c : p.requiredCapabilities) {
    auto it = r.capabilities.find(c);
    SupportStatus s = it != r.capabilities.end() ? it->second : SupportStatus{};
    if (s.support != Support::Enforced) add(std::string(toString(c)) + " is " + statusWords(s));
  }
  auto it = r.networkModes.find(p.networkMode);
  SupportStatus s = it != r.networkModes.end() ? it->second : SupportStatus{};
  if (s.support != Support::Enforced) {
    add("network mode " + std::string(toString(p.networkMode)) + " is " + statusWords(s));
  }
  return why;
}

// What keeps every backend at or above the policy's level from running
// here ("docker: unavailable: …"), or empty when one of them runs and only
// lacks a capability (that is SANDBOX_CAPABILITY_INSUFFICIENT).
std::string missingAtLevel(const EffectiveSandbox& p, const std::vector<Refusal>& refused) {
  std::string why;
  for (const Refusal& r : refused) {
    if (static_cast<int>(isolationOf(r.backend)) < static_cast<int>(p.minIsolation)) continue;
    if (r.runsHere) return {};
    why += (why.empty() ? "" : "; ") + std::string(toString(r.backend)) + ": " + r.reason;
  }
  if (!why.empty()) return why;
  std::string givers;
  for (BackendId b : kAllBackends)
    if (static_cast<int>(isolationOf(b)) >= static_cast<int>(p.minIsolation))
      givers += (givers.empty() ? "" : ", ") + std::string(toString(b));
  return "preferredBackends lists no backend that gives it (" + givers + " would)";
}

// A level no backend here gives: L3 where gVisor is not installed or did not
// show its own kernel, L2 where docker cannot run (no engine, no pinned
// runtime profile). Never a lower level instead.
Error isolationUnavailable(const EffectiveSandbox& p, const std::string& missing) {
  const std::string level(toString(p.minIsolation));
  const std::string what = "the step asks for isolation " + describeLevel(p.minIsolation) + "; no backend here gives " +
                           level + ": " + missing;
  if (p.minIsolation == Isolation::L3)
    return makeError(ErrorCode::IsolationUnavailable, what,
                     level +
                         " needs gVisor (the runsc package) on this host and linux-gvisor in preferredBackends "
                         "(docs/isolation-levels.md), or a cluster in the host config and k8s-pod "
                         "(docs/kubernetes.md); run 'loopwright sandbox backends' to see what this host lacks. "
                         "The step is never run at a lower level instead");
  return makeError(ErrorCode::IsolationUnavailable, what,
                   level +
                       " needs a reachable Docker engine (DOCKER_HOST) and a runtime profile the host admin "
                       "pinned, named by the step's sandbox.runtimeProfile; run 'loopwright sandbox backends' to see "
                       "what this host lacks. The step is never run at a lower level instead");
}

// Why nothing was chosen. A level no backend gives comes first: no
// capability could change the answer.
Error refusalError(const EffectiveSandbox& p, const std::vector<Refusal>& refused) {
  if (std::string missing = isolationMissing(p.minIsolation); !missing.empty()) return isolationUnavailable(p, missing);
  if (p.minIsolation != Isolation::L1)
    if (std::string missing = missingAtLevel(p, refused); !missing.empty()) return isolationUnavailable(p, missing);
  bool anyRuns = false;
  for (const Refusal& r : refused) anyRuns = anyRuns || r.runsHere;
  return anyRuns ? makeError(ErrorCode::SandboxCapabilityInsufficient,
                             "no listed sandbox backend gives what the policy requires",
                             "run 'loopwright sandbox backends' to see what this host enforces, "
                             "or relax requiredCapabilities / networkMode")
                 : makeError(ErrorCode::SandboxBackendUnavailable,
                             "none of the listed sandbox backends can run on this host",
                             "run 'loopwright sandbox backends' to see why, or list another backend");
}

}  // namespace

Result<Negotiated> negotiate(const NegotiationRequest& req, const ProbeFor& probeFor) {
  Negotiated out;
  if (req.policy.preferredBackends.empty()) {
    return makeError(ErrorCode::SandboxBackendUnavailable, "no sandbox backend is listed",
                     "list at least one backend in preferredBackends");
  }
  for (BackendId id : req.policy.preferredBackends) {
    Refusal refusal{id, false, {}};
    if (std::string why = policyRefusal(id, req); !why.empty()) {
      refusal.reason = why;
      out.refused.push_back(refusal);
      continue;
    }
    const ProbeReport* r = probeFor(id);
    if (r == nullptr || !r->available) {
      refusal.reason = r == nullptr ? "not built into this loopwright" : "unavailable: " + r->unavailableReason;
      out.refused.push_back(refusal);
      continue;
    }
    if (static_cast<int>(observedIsolation(*r)) < static_cast<int>(req.policy.minIsolation)) {
      refusal.reason = "its probe did not see a step run on another kernel here, so it gives " +
                       std::string(toString(observedIsolation(*r))) + ", the policy requires at least " +
                       std::string(toString(req.policy.minIsolation));
      out.refused.push_back(refusal);
      continue;
    }
    refusal.runsHere = true;
    if (std::string why = lacks(*r, req.policy); !why.empty()) {
      refusal.reason = why;
      out.refused.push_back(refusal);
      continue;
    }
    out.backend = id;
    out.isolation = observedIsolation(*r);
    for (const auto& [c, s] : r->capabilities) {
      if (s.support == Support::Enforced) out.enforced.push_back(c);
    }
    return out;
  }

  Error e = refusalError(req.policy, out.refused);
  for (std::size_t i = 0; i < out.refused.size(); ++i) {
    Diagnostic d;
    d.location.path = "preferredBackends[" + std::to_string(i) + "]";
    d.message = std::string(toString(out.refused[i].backend)) + ": " + out.refused[i].reason;
    e.diagnostics.push_back(std::move(d));
  }
  return e;
}

}  // namespace lw::sandbox
