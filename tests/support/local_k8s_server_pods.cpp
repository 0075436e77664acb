// The pod side of the local Kubernetes API server (local_k8s_server.h):
// what the registry's validation and the admission plugins refuse of a new
// Pod, exec over WebSocket, and the statuses the runtime reports.
#include <algorithm>
#include <regex>
#include <set>

#include "support/local_k8s_server.h"
#include "support/local_k8s_status.h"

namespace lw::test {

namespace json = boost::json;
using k8s_answers::statusResponse;

namespace {

// apimachinery's IsDNS1123Label: what a container's name must be.
bool isDns1123Label(const std::string& name) {
  static const std::regex re(R"([a-z0-9]([-a-z0-9]*[a-z0-9])?)");
  return name.size() <= 63 && std::regex_match(name, re);
}

std::set<std::string> volumeNames(const json::object& spec) {
  std::set<std::string> names;
  if (const json::value* volumes = spec.if_contains("volumes"))
    for (const json::value& v : volumes->as_array()) names.insert(std::string(v.at("name").as_string()));
  return names;
}

// ValidateContainers' subset: a DNS-1123 label name, unique, an image, and
// mounts of the pod's volumes.
void containerErrors(const json::object& spec, const char* list, std::set<std::string>& seen,
                     std::vector<std::pair<std::string, std::string>>& errors) {
  const json::value* containers = spec.if_contains(list);
  if (containers == nullptr) return;
  const std::set<std::string> volumes = volumeNames(spec);
  for (std::size_t i = 0; i < containers->as_array().size(); ++i) {
    const json::object& c = containers->as_array()[i].as_object();
    const std::string at = std::string("spec.") + list + "[" + std::to_string(i) + "]";
    const std::string name(c.at("name").as_string());
    if (!isDns1123Label(name))
      errors.emplace_back(at + ".name", "Invalid value: \"" + name +
                                            "\": a lowercase RFC 1123 label must consist of lower "
                                            "case alphanumeric characters or '-'");
    if (!seen.insert(name).second) errors.emplace_back(at + ".name", "Duplicate value: \"" + name + "\"");
    const json::value* image = c.if_contains("image");
    if (image == nullptr || image->as_string().empty()) errors.emplace_back(at + ".image", "Required value");
    if (const json::value* mounts = c.if_contains("volumeMounts"))
      for (std::size_t m = 0; m < mounts->as_array().size(); ++m) {
        const std::string volume(mounts->as_array()[m].at("name").as_string());
        if (!volumes.contains(volume))
          errors.emplace_back(at + ".volumeMounts[" + std::to_string(m) + "].name", "Not found: \"" + volume + "\"");
      }
  }
}

// Pod Security admission, restricted:latest.
const json::object* objectAt(const json::object& o, const char* key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

bool isTrue(const json::object* o, const char* key) {
  const json::value* v = o != nullptr ? o->if_contains(key) : nullptr;
  return v != nullptr && v->is_bool() && v->as_bool();
}
bool isFalse(const json::object* o, const char* key) {
  const json::value* v = o != nullptr ? o->if_contains(key) : nullptr;
  return v != nullptr && v->is_bool() && !v->as_bool();
}

std::string seccompType(const json::object* securityContext) {
  const json::object* p = securityContext != nullptr ? objectAt(*securityContext, "seccompProfile") : nullptr;
  const json::value* t = p != nullptr ? p->if_contains("type") : nullptr;
  return t != nullptr && t->is_string() ? std::string(t->as_string()) : "";
}

bool dropsAll(const json::object* securityContext) {
  const json::object* caps = securityContext != nullptr ? objectAt(*securityContext, "capabilities") : nullptr;
  const json::value* drop = caps != nullptr ? caps->if_contains("drop") : nullptr;
  if (drop == nullptr || !drop->is_array()) return false;
  return std::any_of(drop->as_array().begin(), drop->as_array().end(), [](const json::value& c) { return c == "ALL"; });
}

void containerViolations(const json::object& pod, const json::object& c, std::vector<std::string>& out) {
  const json::object* podSc = objectAt(pod, "securityContext");
  const json::object* sc = objectAt(c, "securityContext");
  const std::string name = "container \"" + std::string(c.at("name").as_string()) + "\" must set ";
  if (!isFalse(sc, "allowPrivilegeEscalation"))
    out.push_back("allowPrivilegeEscalation != false (" + name + "securityContext.allowPrivilegeEscalation=false)");
  if (!dropsAll(sc))
    out.push_back("unrestricted capabilities (" + name + "securityContext.capabilities.drop=[\"ALL\"])");
  if (isTrue(sc, "privileged")) out.push_back("privileged (container must not set securityContext.privileged=true)");
  if (!isTrue(sc, "runAsNonRoot") && !isTrue(podSc, "runAsNonRoot"))
    out.push_back("runAsNonRoot != true (" + name + "securityContext.runAsNonRoot=true)");
  const std::string seccomp = seccompType(sc).empty() ? seccompType(podSc) : seccompType(sc);
  if (seccomp != "RuntimeDefault" && seccomp != "Localhost")
    out.push_back("seccompProfile (" + name +
                  "securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")");
}

}  // namespace

std::vector<std::string> restrictedPodSecurityViolations(const json::object& pod) {
  std::vector<std::string> out;
  const json::object& spec = pod.at("spec").as_object();
  for (const char* host : {"hostNetwork", "hostPID", "hostIPC"})
    if (isTrue(&spec, host)) out.push_back(std::string("host namespaces (") + host + "=true)");
  if (const json::value* volumes = spec.if_contains("volumes"))
    for (const json::value& v : volumes->as_array())
      if (v.as_object().contains("hostPath"))
        out.push_back("restricted volume types (volume \"" + std::string(v.at("name").as_string()) +
                      "\" uses hostPath)");
  for (const char* list : {"initContainers", "containers"})
    if (const json::value* containers = spec.if_contains(list))
      for (const json::value& c : containers->as_array()) containerViolations(spec, c.as_object(), out);
  return out;
}

std::vector<std::pair<std::string, std::string>> LocalK8sServer::podFieldErrors(
    const json::object& pod, std::vector<std::pair<std::string, std::string>> errors) const {
  const json::value* spec = pod.if_contains("spec");
  if (spec == nullptr || !spec->is_object()) {
    errors.emplace_back("spec", "Required value");
    return errors;
  }
  const json::value* containers = spec->as_object().if_contains("containers");
  if (containers == nullptr || containers->as_array().empty()) errors.emplace_back("spec.containers", "Required value");
  std::set<std::string> seen;
  containerErrors(spec->as_object(), "initContainers", seen, errors);
  containerErrors(spec->as_object(), "containers", seen, errors);
  const json::value* restart = spec->as_object().if_contains("restartPolicy");
  if (restart != nullptr && restart->as_string() != "Always" && restart->as_string() != "OnFailure" &&
      restart->as_string() != "Never")
    errors.emplace_back("spec.restartPolicy", "Unsupported value: " + json::serialize(*restart) +
                                                  ": supported values: \"Always\", \"OnFailure\", \"Never\"");
  return errors;
}

// The RuntimeClass admission plugin, and Pod Security admission enforcing
// "restricted" (the namespace loopwright's pods run in should: docs/kubernetes.md).
std::string LocalK8sServer::podAdmissionRefusal(const json::object& pod) const {
  const json::value* rc = pod.at("spec").as_object().if_contains("runtimeClassName");
  if (rc != nullptr && !objects_.contains("/apis/node.k8s.io/v1/runtimeclasses/" + std::string(rc->as_string())))
    return "pod rejected: RuntimeClass \"" + std::string(rc->as_string()) + "\" not found";
  std::vector<std::string> violations = restrictedPodSecurityViolations(pod);
  if (violations.empty()) return "";
  std::string text = "violates PodSecurity \"restricted:latest\": ";
  for (std::size_t i = 0; i < violations.size(); ++i) text += (i > 0 ? ", " : "") + violations[i];
  return text;
}

namespace {

bool selects(const json::object& policy, const json::object& podLabels) {
  const json::value* selector = policy.at("spec").as_object().if_contains("podSelector");
  const json::value* match = selector != nullptr ? selector->as_object().if_contains("matchLabels") : nullptr;
  if (match == nullptr) return true;
  for (const auto& [key, value] : match->as_object()) {
    const json::value* label = podLabels.if_contains(key);
    if (label == nullptr || *label != value) return false;
  }
  return true;
}

bool deniesEgress(const json::object& policy) {
  const json::object& spec = policy.at("spec").as_object();
  const json::value* types = spec.if_contains("policyTypes");
  const bool egressType = types != nullptr && std::any_of(types->as_array().begin(), types->as_array().end(),
                                                          [](const json::value& t) { return t == "Egress"; });
  const json::value* egress = spec.if_contains("egress");
  return egressType && (egress == nullptr || egress->as_array().empty());
}

}  // namespace

void LocalK8sServer::setSandboxedProcVersion(std::string text) {
  std::lock_guard<std::mutex> lock(mu_);
  sandboxedProcVersion_ = std::move(text);
}

// What the node does for the pod: its own network namespace when an enforced
// NetworkPolicy denies it all egress; the runtime's kernel for runsc.
PodSandbox LocalK8sServer::podSandbox(const json::object& pod) const {
  PodSandbox out;
  const std::string ns(pod.at("metadata").at("namespace").as_string());
  const json::value* labels = pod.at("metadata").as_object().if_contains("labels");
  const json::object podLabels = labels != nullptr ? labels->as_object() : json::object{};
  const std::string policies = "/apis/networking.k8s.io/v1/namespaces/" + ns + "/networkpolicies/";
  for (auto it = objects_.lower_bound(policies); it != objects_.end() && it->first.starts_with(policies); ++it)
    out.ownNetwork = out.ownNetwork || (selects(it->second, podLabels) && deniesEgress(it->second));
  out.ownNetwork = out.ownNetwork && networkPolicyEnforced_;
  const json::value* rc = pod.at("spec").as_object().if_contains("runtimeClassName");
  auto runtimeClass = rc != nullptr
                          ? objects_.find("/apis/node.k8s.io/v1/runtimeclasses/" + std::string(rc->as_string()))
                          : objects_.end();
  if (runtimeClass != objects_.end() && runtimeClass->second.at("handler") == "runsc")
    out.procVersion = sandboxedProcVersion_;
  return out;
}

// GET .../pods/{name}/exec?command=..&container=..&stdin=.. with an upgrade
// to WebSocket offering v5.channel.k8s.io, as kubectl exec sends it.
LocalHttpServer::Response LocalK8sServer::serveExec(const LocalHttpServer::Request& request, const std::string& podPath,
                                                    const std::string& podName) {
  if (pathOf(request.target).ends_with("/attach") || pathOf(request.target).ends_with("/portforward"))
    return statusResponse(400, "BadRequest", "the local API server serves exec only");
  if (!object(podPath)) return statusResponse(404, "NotFound", "pods \"" + podName + "\" not found");
  std::vector<std::string> command;
  std::string container;
  bool withStdin = false;
  for (const auto& [k, v] : queryOf(request.target)) {
    if (k == "command") command.push_back(v);
    if (k == "container") container = v;
    if (k == "stdin") withStdin = v == "true" || v == "1";
  }
  auto protocols = request.headers.find("sec-websocket-protocol");
  if (request.headers.find("upgrade") == request.headers.end() || protocols == request.headers.end() ||
      protocols->second.find("v5.channel.k8s.io") == std::string::npos)
    return statusResponse(400, "BadRequest", "Upgrade request required");
  if (command.empty()) return statusResponse(400, "BadRequest", "you must specify at least 1 command");
  if (std::string refusal = pods_->execRefusal(podPath, container); !refusal.empty())
    return statusResponse(400, "BadRequest", refusal);
  LocalHttpServer::Response upgrade{101, {{"Sec-WebSocket-Protocol", "v5.channel.k8s.io"}}, ""};
  upgrade.upgrade = [this, podPath, container, command, withStdin](LocalHttpServer::WebSocket& ws) {
    pods_->exec(podPath, container, command, withStdin, ws);
  };
  return upgrade;
}

// A pod's deletion answers the pod as it goes (gracePeriodSeconds=0: gone at once).
LocalHttpServer::Response LocalK8sServer::podDeleted(const std::string& path, json::object pod) {
  pods_->stop(path);
  pod["metadata"].as_object()["deletionTimestamp"] = "2024-05-01T12:00:00Z";
  pod["metadata"].as_object()["deletionGracePeriodSeconds"] = 0;
  return k8s_answers::jsonResponse(200, pod);
}

void LocalK8sServer::podStatusChanged(const std::string& path, json::object status) {
  std::lock_guard<std::mutex> lock(mu_);
  auto found = objects_.find(path);
  if (found == objects_.end()) return;
  found->second["status"] = std::move(status);
  found->second.at("metadata").as_object()["resourceVersion"] = std::to_string(++revision_);
  record(path, "MODIFIED", found->second);
}

}  // namespace lw::test
