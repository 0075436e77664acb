#include "sandbox/k8s/k8s_pod_backend.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "core/hex.h"
#include "core/version.h"
#include "sandbox/k8s/k8s_canary_run.h"
#include "sandbox/k8s/k8s_pod_plan.h"
#include "sandbox/k8s/k8s_pod_run.h"
#include "sandbox/k8s/k8s_pods_api.h"
#include "sandbox/k8s/k8s_preflight.h"
#include "sandbox/k8s/k8s_step_files.h"
#include "sandbox/probe_cache.h"

namespace lw::sandbox::k8s {
namespace {

namespace json = boost::json;

json::object podLabels(const std::string& runLabel, const std::string& stepLabel) {
  return json::object{{kManagedByLabel, "loopwright"}, {kRunLabel, runLabel}, {kStepLabel, stepLabel}};
}

// A host path of the workspace or the out dir -> where the pod has it.
std::string podPath(const StepSpec& spec, const std::string& value) {
  const std::pair<std::string, const char*> roots[] = {{spec.outDir.string(), kOutMount},
                                                       {spec.workspace.string(), kWorkspaceMount}};
  for (const auto& [host, inPod] : roots)
    if (!host.empty() && (value == host || value.starts_with(host + "/"))) return inPod + value.substr(host.size());
  return value;
}

StepSpec inPodPaths(const StepSpec& spec) {
  StepSpec out = spec;
  for (std::string& a : out.argv) a = podPath(spec, a);
  for (auto& [name, value] : out.env) value = podPath(spec, value);
  return out;
}

Error refused(const std::string& what, const std::string& hint) {
  return makeError(ErrorCode::SandboxCapabilityInsufficient, "k8s-pod cannot run this step: " + what, hint, "k8s-pod");
}

// allow-list holds where the pod's network reaches nothing (the canary saw
// the policy enforced): then the run's egress proxy, on the runner, is the
// step's only way out (k8s_egress_relay.h).
SupportStatus allowListSupport(const K8sPodConfig& c, const SupportStatus& network) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(c.initBinary, ec))
    return {Support::Absent, "loopwright-container-init is not installed beside loopwright (" + c.initBinary.string() +
                                 "): the egress relay cannot be carried into the pod"};
  if (network.support != Support::Enforced) return network;
  return {Support::Enforced,
          "127.0.0.1:3128 in the pod carried over exec to the run's egress proxy on the runner, the only way out: " +
              network.reason};
}

// The capabilities the API showed, with what the canary pod observed in
// place of what only it can show: the network plugin enforcing the policy
// (networkMode none and loopback-only) and the node's kernel (L3).
ProbeReport probeReportOf(const K8sPodConfig& c, const Preflight& pre, const CanaryVerdict& canary) {
  ProbeReport r;
  r.backend = BackendId::K8sPod;
  r.version = "Kubernetes API " + c.endpoint.server + ", RuntimeClass " + c.runtimeClassName;
  r.available = true;
  r.capabilities = pre.capabilities;
  r.capabilities[Capability::NetworkIsolation] = canary.network;
  r.networkModes = {{NetworkMode::None, canary.network},
                    {NetworkMode::LoopbackOnly, canary.network},
                    {NetworkMode::AllowOutbound, {Support::Absent, "the default-deny policy allows no egress"}},
                    {NetworkMode::AllowList, allowListSupport(c, canary.network)}};
  if (canary.kernelSeparation.empty()) {
    r.capabilities[Capability::SyscallFiltering] = {
        Support::Partial, "seccompProfile RuntimeDefault; not the sandboxed kernel: " + canary.kernelFailure};
    return r;
  }
  r.kernelSeparation = "RuntimeClass " + c.runtimeClassName + " (handler " + pre.handler +
                       "): " + canary.kernelSeparation + ", not on this runner";
  return r;
}

}  // namespace

std::string sweepSelector(const std::string& runLabel) {
  return std::string(kManagedByLabel) + "=loopwright," + kRunLabel + "=" + runLabel;
}

const ProbeReport& K8sPodBackend::probe() {
  if (report_) return *report_;
  auto pre = preflightFromCluster(*config_.transport, config_.endpoint, config_.runtimeClassName, config_.ns,
                                  podLabels(config_.runLabel, "probe"));
  if (!pre) {
    ProbeReport r;
    r.backend = BackendId::K8sPod;
    r.version = "Kubernetes API " + config_.endpoint.server + ", RuntimeClass " + config_.runtimeClassName;
    r.unavailableReason = pre.error().message;
    markAllAbsent(r, pre.error().message);
    return *(report_ = r);  // never cached: the next run asks the API again
  }
  // What the canary pod observed depends on the cluster, the namespace's policy, the runtime and the image.
  std::error_code ec;
  const std::string key = "k8s-probe-v2|" +
                          std::string(std::filesystem::is_regular_file(config_.initBinary, ec) ? "init|" : "no-init|") +
                          std::string(kVersion) + "|" + config_.endpoint.server + "|" + config_.ns + "|" +
                          config_.runtimeClassName + "|" + pre->handler + "|" + pre->denyPolicy + "|" + config_.image;
  report_ = probeThroughCache(config_.cacheFile, config_.readCache, key, [&] {
    CanaryRunInput canary{config_.endpoint, pre->runtime, config_.canaryPublicAddress, config_.canaryTimeout};
    return probeReportOf(config_, *pre, runCanaryPod(*this, canary));
  });
  return *report_;
}

Result<std::unique_ptr<process::RunningProcess>> K8sPodBackend::launch(const StepSpec& spec) {
  if (spec.network == NetworkMode::AllowOutbound)
    return refused("networkMode allow-outbound (pods get the default-deny policy only)",
                   "use networkMode none, loopback-only or allow-list with k8s-pod (docs/kubernetes.md)");
  if (spec.network == NetworkMode::AllowList && spec.egressSocket.empty())
    return refused("networkMode allow-list without the run's egress proxy",
                   "run the step through loopwright run or sandbox exec, which start the proxy (docs/egress.md)");
  // Again before every pod: a NetworkPolicy or RuntimeClass deleted since the probe refuses the step.
  auto pre = preflightFromCluster(*config_.transport, config_.endpoint, config_.runtimeClassName, config_.ns,
                                  podLabels(config_.runLabel, "step"));
  if (!pre) return pre.error();
  return createAndRun(spec);
}

Result<std::unique_ptr<process::RunningProcess>> K8sPodBackend::createAndRun(const StepSpec& spec) {
  auto input = tarTree(spec.workspace, config_.maxWorkspaceBytes);
  if (!input) return input.error();
  auto filter = filterFor(spec);
  if (!filter) return filter.error();
  auto files = stepFilesFor(spec, config_.initBinary, *filter);
  if (!files) return files.error();
  // The pipeline closes its copy of the step's end once launch returns.
  UniqueFd bridge(spec.passFd ? ::fcntl(*spec.passFd, F_DUPFD_CLOEXEC, 3) : -1);
  if (spec.passFd && !bridge)
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "cannot hold the step's bridge: " + std::string(std::strerror(errno)), "", "k8s-pod");
  const std::string stepLabel = randomHex(10);
  PodPlanInput plan{inPodPaths(files->spec),
                    spec.image.value_or(config_.image),
                    config_.ns,
                    "lw-" + config_.runLabel + "-" + stepLabel,
                    config_.runtimeClassName,
                    config_.runLabel,
                    stepLabel,
                    config_.podDeadlineSeconds,
                    !files->files.empty(),
                    files->nodeArch};
  auto created = createPod(*config_.transport, config_.endpoint, planPod(plan));
  if (!created) return created.error();
  PodRunContext context{config_.transport.get(),
                        config_.endpoint,
                        config_.ns,
                        plan.podName,
                        plan.spec,
                        std::move(*input),
                        config_.startTimeout,
                        config_.outputs,
                        files->files.empty() ? std::string() : tarFiles(files->files),
                        std::move(bridge),
                        config_.relayTimeout,
                        spec.network == NetworkMode::AllowList ? spec.egressSocket : std::filesystem::path()};
  return std::unique_ptr<process::RunningProcess>(std::make_unique<PodRun>(std::move(context)));
}

std::vector<limits::Enforcement> K8sPodBackend::limitsEnforcement(const ResourceLimits& l) {
  return podLimitsEnforcement(l);
}

std::string K8sPodBackend::hostDependencies() {
  return "kubernetes " + config_.endpoint.server + " namespace " + config_.ns + " runtimeClass " +
         config_.runtimeClassName + " image " + config_.image;
}

std::vector<std::string> K8sPodBackend::hostNotes() {
  return {"whoever may create pods/exec in namespace " + config_.ns +
          " can read and change every step's workspace and outputs there: grant those verbs to the runner's service "
          "account alone (docs/kubernetes.md)"};
}

}  // namespace lw::sandbox::k8s
