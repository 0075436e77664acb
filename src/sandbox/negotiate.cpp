#include "sandbox/negotiate.h"

namespace lw::sandbox {
namespace {

std::string statusWords(const SupportStatus& s) {
  return std::string(toString(s.support)) + (s.reason.empty() ? "" : " (" + s.reason + ")");
}

// Reasons the policy forbids a backend, before any probe.
std::string policyRefusal(BackendId id, const NegotiationRequest& req) {
  const EffectiveSandbox& p = req.policy;
  if (id == BackendId::DirectDedicated && !p.allowDedicatedDirectOverride) {
    return "direct-dedicated gives no isolation and is allowed only with "
           "allowDedicatedDirectOverride";
  }
  if (id == BackendId::Docker && !p.runtimeProfile && !req.explicitImage) {
    return "docker runs only a runtime profile pinned by the host admin or an explicit --image";
  }
  if (static_cast<int>(isolationOf(id)) < static_cast<int>(p.minIsolation)) {
    return "provides isolation " + std::string(toString(isolationOf(id))) +
           ", the policy requires at least " + std::string(toString(p.minIsolation));
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
      refusal.reason = r == nullptr ? "not built into this loopwright"
                                    : "unavailable: " + r->unavailableReason;
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
    for (const auto& [c, s] : r->capabilities) {
      if (s.support == Support::Enforced) out.enforced.push_back(c);
    }
    return out;
  }

  bool anyRuns = false;
  for (const Refusal& r : out.refused) anyRuns = anyRuns || r.runsHere;
  Error e = anyRuns
                ? makeError(ErrorCode::SandboxCapabilityInsufficient,
                            "no listed sandbox backend gives what the policy requires",
                            "run 'loopwright sandbox backends' to see what this host enforces, "
                            "or relax requiredCapabilities / networkMode")
                : makeError(ErrorCode::SandboxBackendUnavailable,
                            "none of the listed sandbox backends can run on this host",
                            "run 'loopwright sandbox backends' to see why, or list another backend");
  for (std::size_t i = 0; i < out.refused.size(); ++i) {
    Diagnostic d;
    d.location.path = "preferredBackends[" + std::to_string(i) + "]";
    d.message = std::string(toString(out.refused[i].backend)) + ": " + out.refused[i].reason;
    e.diagnostics.push_back(std::move(d));
  }
  return e;
}

}  // namespace lw::sandbox
