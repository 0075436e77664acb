// The pure half of the k8s-pod backend (L3 remote; docs/kubernetes.md):
// one step -> the Pod it runs in and the default-deny NetworkPolicy the
// namespace must hold. The effects are k8s_pod_backend.h's.
//
// The Pod, in order of what it holds back:
//  1. runtimeClassName: a sandboxed runtime (gVisor or Kata; k8s_preflight.h
//     checks the RuntimeClass) — the step runs on another kernel;
//  2. restricted Pod Security: runAsNonRoot with a fixed non-root uid,
//     seccompProfile RuntimeDefault, and per container
//     allowPrivilegeEscalation false, capabilities drop ALL,
//     readOnlyRootFilesystem; no host namespaces (hostNetwork, hostPID,
//     hostIPC false), no privileged container;
//  3. automountServiceAccountToken false and enableServiceLinks false: the
//     step sees no cluster credentials and no service addresses;
//  4. the step's limits: memory as request and limit, /tmp as a memory-backed
//     emptyDir of tmpSize, ephemeral storage bounded by fileSize;
//  5. the workspace, /out and /tmp as emptyDirs; two containers that only
//     wait (bounded by activeDeadlineSeconds): `files`, which alone writes
//     the workspace, and `step`, which mounts it read-only unless the role
//     writes it. The backend execs the workspace in (a tar stream on the
//     stdin of `tar -x` in `files`), the step's argv in `step`, and the
//     outputs out (`tar -c` of /out in `files`), so the step starts only
//     once its workspace is whole;
//  6. labels: app.kubernetes.io/managed-by=loopwright and the run and step,
//     which the job-completed sweep deletes by;
//  7. for a step that gets loopwright's own files (its init and seccomp
//     filter, which carry the bridge, and the run's event), one more
//     emptyDir at /loopwright: `files` writes it, `step` mounts it read-only;
//     with the init, a nodeSelector on kubernetes.io/arch, the runner's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "sandbox/backend.h"
#include "sandbox/limits/limits_plan.h"

namespace lw::sandbox::k8s {

inline constexpr const char* kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr const char* kRunLabel = "loopwright.dev/run";
inline constexpr const char* kStepLabel = "loopwright.dev/step";
inline constexpr const char* kWorkspaceMount = "/workspace";
inline constexpr const char* kOutMount = "/out";
inline constexpr const char* kLoopwrightMount = "/loopwright";
inline constexpr std::int64_t kStepUid = 65532;  // non-root, the distroless "nonroot" uid
inline constexpr const char* kFilesContainer = "files";
inline constexpr const char* kStepContainer = "step";
inline constexpr std::int64_t kFilesMemoryBytes = std::int64_t{128} << 20;
inline constexpr std::int64_t kLoopwrightBytes = std::int64_t{64} << 20;  // the /loopwright volume

struct PodPlanInput {
  StepSpec spec;        // env (paths as the pod sees them), limits, workspaceWritable
  std::string image;    // pinned by digest ("repo@sha256:<64 hex>")
  std::string ns;       // the namespace the host config names
  std::string podName;  // a DNS-1123 subdomain, unique per step
  std::string runtimeClassName;
  std::string runLabel;  // label values: 1..63 of [A-Za-z0-9._-]
  std::string stepLabel;
  // The pod ends by then whatever happens to loopwright (activeDeadlineSeconds).
  std::int64_t deadlineSeconds = 6 * 3600;
  bool loopwrightFiles = false;  // the /loopwright volume (7. above)
  // The nodes' architecture the pod needs ("amd64"; "" any): a step with a
  // bridge runs this runner's own init (nodeSelector kubernetes.io/arch).
  std::string nodeArch;
};

// The Pod object for `POST /api/v1/namespaces/{ns}/pods`.
boost::json::object planPod(const PodPlanInput& input);

// Where a step may reach over the network besides nothing: the egress proxy,
// when the step's network mode is an allow-list (docs/egress.md).
struct EgressProxy {
  std::string cidr;  // "10.0.0.7/32"
  int port = 0;
};

inline constexpr const char* kDefaultDenyPolicyName = "loopwright-default-deny";

// The NetworkPolicy the namespace must hold before a step starts: every pod
// loopwright labels, no ingress, and no egress but to the proxy (when given).
// The bridge needs none: it is carried over an exec stream (k8s_bridge_relay.h).
boost::json::object planDefaultDenyPolicy(const std::string& ns, const std::optional<EgressProxy>& proxy);

// How a pod holds each of the step's limits (spec.limits), for the report.
std::vector<limits::Enforcement> podLimitsEnforcement(const ResourceLimits& l);

}  // namespace lw::sandbox::k8s
