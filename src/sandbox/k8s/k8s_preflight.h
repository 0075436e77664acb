// The k8s-pod backend's checks before a step starts, pure: what the API
// server answered about the RuntimeClass and the namespace's NetworkPolicies
// in, the runtime and the capabilities out, or the refusal. It refuses,
// never downgrades: a missing RuntimeClass, one whose handler is not gVisor
// (runsc) or Kata, no default-deny NetworkPolicy for the step's pods, or any
// policy that lets those pods receive traffic or reach more than the egress
// proxy (policies add up: one open policy opens the pod).
#pragma once

#include <map>
#include <optional>
#include <string>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "core/result.h"
#include "sandbox/backend.h"

namespace lw::sandbox::k8s {

enum class SandboxRuntime { GVisor, Kata };

struct PreflightFacts {
  std::string runtimeClassName;
  // GET /apis/node.k8s.io/v1/runtimeclasses/{name}; nullopt: 404.
  std::optional<boost::json::object> runtimeClass;
  std::string ns;
  // The items of GET /apis/networking.k8s.io/v1/namespaces/{ns}/networkpolicies.
  boost::json::array networkPolicies;
  boost::json::object podLabels;  // the labels planPod gives the step's pod
};

struct Preflight {
  SandboxRuntime runtime = SandboxRuntime::GVisor;
  std::string handler;     // the RuntimeClass's handler ("runsc", "kata-qemu")
  std::string denyPolicy;  // the default-deny policy that selects the pod
  // Per capability, from what the API shows; what only a canary pod can
  // observe (the network plugin enforcing policies, the node's kernel) is
  // Partial with the reason, never assumed.
  std::map<Capability, SupportStatus> capabilities;
};

// SANDBOX_CAPABILITY_INSUFFICIENT (the RuntimeClass is missing or not a
// sandboxed runtime, or the NetworkPolicies do not deny) naming what to
// create, with the exact object in the hint.
Result<Preflight> checkPreflight(const PreflightFacts& facts);

}  // namespace lw::sandbox::k8s
