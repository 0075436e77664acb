#include "sandbox/k8s/k8s_pod_plan.h"

namespace lw::sandbox::k8s {
namespace {

namespace json = boost::json;

// The restricted Pod Security Standard's container fields (and privileged
// false): every container of the pod, the init container included.
json::object containerSecurity() {
  return json::object{{"allowPrivilegeEscalation", false},
                      {"privileged", false},
                      {"readOnlyRootFilesystem", true},
                      {"runAsNonRoot", true},
                      {"capabilities", json::object{{"drop", json::array{"ALL"}}}},
                      {"seccompProfile", json::object{{"type", "RuntimeDefault"}}}};
}

json::object mount(const char* name, const char* path, bool readOnly) {
  return json::object{{"name", name}, {"mountPath", path}, {"readOnly", readOnly}};
}

// Quantities in bytes, as decimal strings: exact, and valid Quantity syntax.
std::string bytes(std::int64_t n) { return std::to_string(n); }

json::array envOf(const StepSpec& spec) {
  json::array env;
  for (const auto& [name, value] : spec.env) env.push_back(json::object{{"name", name}, {"value", value}});
  return env;
}

json::object resources(const ResourceLimits& l) {
  json::object amounts{{"memory", bytes(l.memoryBytes)}, {"ephemeral-storage", bytes(l.fileSizeBytes)}};
  return json::object{{"requests", amounts}, {"limits", amounts}};
}

// What each container runs: nothing but a wait, bounded by the pod's
// deadline. The workspace, the step and the outputs are exec'd into them
// (k8s_pod_backend.h), so the step starts only once its workspace is there.
json::array holder(const PodPlanInput& in) { return json::array{"sleep", std::to_string(in.deadlineSeconds)}; }

// The container that moves files: it writes the workspace (the step may
// not) and reads /out. Small: tar streams, nothing held in memory.
json::object filesContainer(const PodPlanInput& in) {
  json::object amounts{{"memory", bytes(kFilesMemoryBytes)},
                       {"ephemeral-storage", bytes(in.spec.limits.fileSizeBytes)}};
  json::array mounts{mount("workspace", kWorkspaceMount, false), mount("out", kOutMount, false)};
  if (in.loopwrightFiles) mounts.push_back(mount("loopwright", kLoopwrightMount, false));
  return json::object{{"name", kFilesContainer},
                      {"image", in.image},
                      {"command", holder(in)},
                      {"workingDir", kWorkspaceMount},
                      {"stdin", false},
                      {"tty", false},
                      {"resources", json::object{{"requests", amounts}, {"limits", amounts}}},
                      {"securityContext", containerSecurity()},
                      {"volumeMounts", mounts}};
}

json::object stepContainer(const PodPlanInput& in) {
  json::array mounts{mount("workspace", kWorkspaceMount, !in.spec.workspaceWritable), mount("out", kOutMount, false),
                     mount("tmp", "/tmp", false)};
  if (in.loopwrightFiles) mounts.push_back(mount("loopwright", kLoopwrightMount, true));
  return json::object{{"name", kStepContainer},
                      {"image", in.image},
                      {"command", holder(in)},
                      {"workingDir", kWorkspaceMount},
                      {"env", envOf(in.spec)},
                      {"stdin", false},
                      {"tty", false},
                      {"resources", resources(in.spec.limits)},
                      {"securityContext", containerSecurity()},
                      {"volumeMounts", mounts}};
}

json::array volumes(const PodPlanInput& in) {
  json::array out{
      json::object{{"name", "workspace"}, {"emptyDir", json::object{}}},
      json::object{{"name", "out"}, {"emptyDir", json::object{}}},
      json::object{{"name", "tmp"},
                   {"emptyDir", json::object{{"medium", "Memory"}, {"sizeLimit", bytes(in.spec.limits.tmpBytes)}}}}};
  // The init, its filter and the event: a few MiB, bounded so that it is no second workspace.
  if (in.loopwrightFiles)
    out.push_back(
        json::object{{"name", "loopwright"}, {"emptyDir", json::object{{"sizeLimit", bytes(kLoopwrightBytes)}}}});
  return out;
}

}  // namespace

json::object planPod(const PodPlanInput& in) {
  json::object labels{{kManagedByLabel, "loopwright"}, {kRunLabel, in.runLabel}, {kStepLabel, in.stepLabel}};
  json::object podSecurity{{"runAsNonRoot", true},
                           {"runAsUser", kStepUid},
                           {"runAsGroup", kStepUid},
                           {"fsGroup", kStepUid},
                           {"seccompProfile", json::object{{"type", "RuntimeDefault"}}}};
  json::object spec{{"runtimeClassName", in.runtimeClassName},
                    {"restartPolicy", "Never"},
                    {"automountServiceAccountToken", false},
                    {"enableServiceLinks", false},
                    {"hostNetwork", false},
                    {"hostPID", false},
                    {"hostIPC", false},
                    {"terminationGracePeriodSeconds", 1},
                    {"activeDeadlineSeconds", in.deadlineSeconds},
                    {"securityContext", podSecurity},
                    {"containers", json::array{filesContainer(in), stepContainer(in)}},
                    {"volumes", volumes(in)}};
  if (!in.nodeArch.empty()) spec["nodeSelector"] = json::object{{"kubernetes.io/arch", in.nodeArch}};
  return json::object{{"apiVersion", "v1"},
                      {"kind", "Pod"},
                      {"metadata", json::object{{"name", in.podName}, {"namespace", in.ns}, {"labels", labels}}},
                      {"spec", spec}};
}

json::object planDefaultDenyPolicy(const std::string& ns, const std::optional<EgressProxy>& proxy) {
  json::array egress;
  if (proxy)
    egress.push_back(json::object{{"to", json::array{json::object{{"ipBlock", json::object{{"cidr", proxy->cidr}}}}}},
                                  {"ports", json::array{json::object{{"protocol", "TCP"}, {"port", proxy->port}}}}});
  json::object spec{{"podSelector", json::object{{"matchLabels", json::object{{kManagedByLabel, "loopwright"}}}}},
                    {"policyTypes", json::array{"Ingress", "Egress"}},
                    {"ingress", json::array{}},
                    {"egress", egress}};
  return json::object{{"apiVersion", "networking.k8s.io/v1"},
                      {"kind", "NetworkPolicy"},
                      {"metadata", json::object{{"name", kDefaultDenyPolicyName},
                                                {"namespace", ns},
                                                {"labels", json::object{{kManagedByLabel, "loopwright"}}}}},
                      {"spec", spec}};
}

std::vector<limits::Enforcement> podLimitsEnforcement(const ResourceLimits& l) {
  using limits::Enforcement;
  std::vector<Enforcement> out{
      {ResourceLimit::Pids, l.pids, false, "not enforced",
       "a Pod has no per-pod process limit; the node's kubelet podPidsLimit is the only bound"},
      {ResourceLimit::Memory, l.memoryBytes, true, "container resources.limits.memory",
       "the container's cgroup, its memory-backed /tmp included"},
      {ResourceLimit::FileSize, l.fileSizeBytes, true, "container resources.limits.ephemeral-storage",
       "the pod's whole writable disk (workspace, out, logs), not one file: the kubelet evicts past it"},
      {ResourceLimit::OpenFiles, l.openFiles, false, "not enforced", "a Pod cannot set rlimits"}};
  if (l.cpuSeconds)
    out.push_back({ResourceLimit::CpuSeconds, l.cpuSeconds, false, "not enforced", "a Pod cannot set rlimits"});
  else
    out.push_back({ResourceLimit::CpuSeconds, std::nullopt, false, "not asked",
                   "no cpuSeconds limit; the wall time bounds the step"});
  out.push_back({ResourceLimit::TmpSize, l.tmpBytes, true, "the sizeLimit of the memory-backed /tmp emptyDir", ""});
  return out;
}

}  // namespace lw::sandbox::k8s
