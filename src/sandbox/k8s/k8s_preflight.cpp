#include "sandbox/k8s/k8s_preflight.h"

#include <boost/json/serialize.hpp>

namespace lw::sandbox::k8s {
namespace {

namespace json = boost::json;

Error refused(std::string message, std::string hint, std::string subject) {
  return makeError(ErrorCode::SandboxCapabilityInsufficient, std::move(message), std::move(hint), std::move(subject));
}

std::string stringAt(const json::object& o, const char* name) {
  const json::value* v = o.if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : "";
}

const json::object& objectAt(const json::object& o, const char* name) {
  static const json::object empty;
  const json::value* v = o.if_contains(name);
  return v != nullptr && v->is_object() ? v->as_object() : empty;
}

const json::array& arrayAt(const json::object& o, const char* name) {
  static const json::array empty;
  const json::value* v = o.if_contains(name);
  return v != nullptr && v->is_array() ? v->as_array() : empty;
}

std::optional<SandboxRuntime> runtimeOf(const std::string& handler) {
  if (handler == "runsc" || handler == "gvisor") return SandboxRuntime::GVisor;
  if (handler == "kata" || handler.starts_with("kata-")) return SandboxRuntime::Kata;
  return std::nullopt;
}

// Whether the policy may select the pod. matchExpressions are not evaluated:
// a policy with any may select it (the safe side for open policies).
bool maySelect(const json::object& policy, const json::object& podLabels) {
  const json::object& selector = objectAt(objectAt(policy, "spec"), "podSelector");
  if (!arrayAt(selector, "matchExpressions").empty()) return true;
  for (const auto& [key, value] : objectAt(selector, "matchLabels")) {
    const json::value* label = podLabels.if_contains(key);
    if (label == nullptr || *label != value) return false;
  }
  return true;
}

bool hasType(const json::object& spec, const char* type) {
  for (const json::value& t : arrayAt(spec, "policyTypes"))
    if (t.is_string() && t.as_string() == type) return true;
  return false;
}

// An egress rule that reaches one address (a /32 or /128 ipBlock without
// exceptions) on listed ports: the egress proxy's shape, nothing wider.
bool isNarrowEgress(const json::value& rule) {
  if (!rule.is_object()) return false;
  const json::array& to = arrayAt(rule.as_object(), "to");
  if (to.empty() || arrayAt(rule.as_object(), "ports").empty()) return false;
  for (const json::value& peer : to) {
    if (!peer.is_object() || peer.as_object().size() != 1) return false;
    const json::object& block = objectAt(peer.as_object(), "ipBlock");
    const std::string cidr = stringAt(block, "cidr");
    if (!arrayAt(block, "except").empty() || !(cidr.ends_with("/32") || cidr.ends_with("/128"))) return false;
  }
  return true;
}

// Why a policy that selects the pod opens it, or "" when it only denies.
std::string opening(const json::object& policy) {
  const json::object& spec = objectAt(policy, "spec");
  if (!arrayAt(spec, "ingress").empty()) return "it allows ingress";
  for (const json::value& rule : arrayAt(spec, "egress"))
    if (!isNarrowEgress(rule)) return "it allows egress beyond one address on listed ports: " + json::serialize(rule);
  return "";
}

std::map<Capability, SupportStatus> capabilitiesOf(SandboxRuntime runtime, const std::string& handler,
                                                   const std::string& policy) {
  const std::string kernel = runtime == SandboxRuntime::GVisor ? "gVisor's user-space kernel" : "the Kata VM's kernel";
  return {
      {Capability::FilesystemReadContainment, {Support::Enforced, "the pod sees only its image and its volumes"}},
      {Capability::FilesystemWriteContainment,
       {Support::Enforced, "read-only root filesystem; only the workspace (author role), /out and /tmp volumes"}},
      {Capability::ProtectedPathReadOnlyMask,
       {Support::Absent, "a pod volume has no per-path masks; verify checks protected paths after the step"}},
      {Capability::NetworkIsolation,
       {Support::Partial, "the API shows NetworkPolicy " + policy +
                              " denying the pod's traffic; whether the network plugin enforces it only a canary pod "
                              "shows (qualify --backend k8s-pod)"}},
      {Capability::ProcessTreeCleanup, {Support::Enforced, "deleting the pod ends every process in it"}},
      {Capability::SyscallFiltering,
       {Support::Enforced, "seccompProfile RuntimeDefault, and the step's system calls served by " + kernel +
                               " (RuntimeClass handler " + handler + ")"}},
  };
}

}  // namespace

Result<Preflight> checkPreflight(const PreflightFacts& f) {
  const std::string rcHint = "create a RuntimeClass " + f.runtimeClassName +
                             " whose handler is runsc (gVisor) or kata* (Kata Containers), installed on the nodes "
                             "(docs/kubernetes.md); loopwright never runs an L3 step under another runtime";
  if (!f.runtimeClass)
    return refused("the RuntimeClass " + f.runtimeClassName + " does not exist", rcHint, f.runtimeClassName);
  const std::string handler = stringAt(*f.runtimeClass, "handler");
  auto runtime = runtimeOf(handler);
  if (!runtime)
    return refused("the RuntimeClass " + f.runtimeClassName + " has the handler \"" + handler +
                       "\", which is neither gVisor (runsc) nor Kata: the step would share the node's kernel",
                   rcHint, f.runtimeClassName);
  std::string deny;
  for (const json::value& item : f.networkPolicies) {
    if (!item.is_object() || !maySelect(item.as_object(), f.podLabels)) continue;
    const std::string name = stringAt(objectAt(item.as_object(), "metadata"), "name");
    if (std::string why = opening(item.as_object()); !why.empty())
      return refused("the NetworkPolicy " + f.ns + "/" + name + " selects the step's pods and " + why +
                         "; policies add up, so the pod would not be isolated",
                     "narrow or remove it (docs/kubernetes.md, \"NetworkPolicy\")", f.ns + "/" + name);
    const json::object& spec = objectAt(item.as_object(), "spec");
    if (deny.empty() && hasType(spec, "Ingress") && hasType(spec, "Egress")) deny = name;
  }
  if (deny.empty())
    return refused("no NetworkPolicy in " + f.ns + " denies the step's pods ingress and egress",
                   "apply the default-deny policy of docs/kubernetes.md (policyTypes Ingress and Egress, selecting " +
                       std::string("app.kubernetes.io/managed-by=loopwright)"),
                   f.ns);
  return Preflight{*runtime, handler, deny, capabilitiesOf(*runtime, handler, deny)};
}

}  // namespace lw::sandbox::k8s
