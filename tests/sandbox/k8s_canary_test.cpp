// The k8s-pod canary: a pod under the step's plan and the namespace's
// default-deny NetworkPolicy tries to reach a listener on the runner, the
// API server and a public address, and shows its kernel. Against the local
// API server, whose pods get a network namespace of their own when a policy
// denies them egress (as an enforcing network plugin does) and gVisor's
// /proc/version under a runsc RuntimeClass: the connections fail and L3 is
// observed; with the policy not enforced the canary connects, and with the
// host's kernel there is no L3 — k8s-pod is then never picked for L3.
#include <doctest/doctest.h>

#include "sandbox/k8s/k8s_canary.h"
#include "sandbox/k8s/k8s_canary_run.h"
#include "sandbox/negotiate.h"
#include "sandbox/probe_cache.h"
#include "support/host_requirement.h"
#include "support/k8s_pod_cluster.h"

using namespace lw;
using namespace lw::sandbox;
using namespace lw::sandbox::k8s;
using lw::test::PodCluster;

namespace {

NegotiationRequest l3Request() {
  NegotiationRequest req;
  req.policy.preferredBackends = {BackendId::K8sPod};
  req.policy.minIsolation = Isolation::L3;
  req.policy.networkMode = NetworkMode::None;
  return req;
}

std::string diagnosticsOf(const Error& e) {
  std::string all = e.message;
  for (const auto& d : e.diagnostics) all += "\n" + d.message;
  return all;
}

CanaryObservation allFailed() {
  CanaryObservation o;
  o.ran = true;
  o.names = {"listener", "api", "public"};
  o.tokens = {"B", "F:listener", "F:api", "F:public", "V:" + versionToken(kGVisorProcVersion)};
  o.runnerProcVersion = "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) #1 SMP";
  return o;
}

}  // namespace

TEST_CASE("k8s canary: every connection failed and gVisor's kernel seen is enforced and L3, nothing less") {
  CHECK(interpretCanary(allFailed()).network.support == Support::Enforced);
  CHECK(interpretCanary(allFailed()).kernelSeparation.find("4.4.0") != std::string::npos);
  CanaryObservation reached = allFailed();
  reached.tokens.erase("F:api");
  reached.tokens.insert("C:api");
  CHECK(interpretCanary(reached).network.support == Support::Absent);
  CanaryObservation accepted = allFailed();
  accepted.listenerAccepts = 1;  // the pod said it failed; the runner saw it arrive
  CHECK(interpretCanary(accepted).network.support == Support::Absent);
  CanaryObservation noBash = allFailed();
  noBash.tokens.erase("B");
  CHECK(interpretCanary(noBash).network.support == Support::Partial);
  CanaryObservation untried = allFailed();
  untried.tokens.erase("F:public");
  CHECK(interpretCanary(untried).network.support == Support::Partial);
  CanaryObservation hostKernel = allFailed();
  hostKernel.tokens.erase("V:" + versionToken(kGVisorProcVersion));
  hostKernel.tokens.insert("V:" + versionToken(hostKernel.runnerProcVersion));
  CHECK(interpretCanary(hostKernel).kernelSeparation.empty());
  CanaryObservation otherKernel = allFailed();
  otherKernel.tokens.erase("V:" + versionToken(kGVisorProcVersion));
  otherKernel.tokens.insert("V:Linux_version_5.15.0");
  CHECK(interpretCanary(otherKernel).kernelSeparation.empty());  // runsc's handler, but not gVisor's kernel
  otherKernel.runtime = SandboxRuntime::Kata;
  CHECK_FALSE(interpretCanary(otherKernel).kernelSeparation.empty());
  CanaryObservation notRun = allFailed();
  notRun.ran = false;
  CHECK(interpretCanary(notRun).network.support == Support::Partial);
  CHECK(interpretCanary(notRun).kernelSeparation.empty());
}

TEST_CASE("k8s canary: under an enforced default-deny policy the canary reaches nothing and k8s-pod is picked for L3") {
  LW_REQUIRE_HOST(lw::test::nodeSandboxInstalled(), "bubblewrap gives the local API server's pods their network");
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  K8sPodBackend backend(config);
  const ProbeReport& r = backend.probe();
  REQUIRE(r.available);
  CHECK_MESSAGE(r.networkModes.at(NetworkMode::None).support == Support::Enforced,
                r.networkModes.at(NetworkMode::None).reason);
  // allow-list holds as the policy does: the run's proxy is then the pod's one way out.
  const SupportStatus allowList = r.networkModes.at(NetworkMode::AllowList);
  CHECK_MESSAGE(allowList.support == Support::Enforced, allowList.reason);
  CHECK(allowList.reason.find("the run's egress proxy on the runner") != std::string::npos);
  CHECK_MESSAGE(r.kernelSeparation.find("Linux_version_4.4.0") != std::string::npos, r.kernelSeparation);
  CHECK(observedIsolation(r) == Isolation::L3);
  auto picked = negotiate(l3Request(), [&](BackendId) { return &backend.probe(); });
  REQUIRE_MESSAGE(picked.ok(), diagnosticsOf(picked.error()));
  CHECK(picked->backend == BackendId::K8sPod);
  CHECK(picked->isolation == Isolation::L3);
  c.checkNoPodLeft();
}

TEST_CASE("k8s canary: where the network plugin ignores the policy the canary connects and L3 is refused") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  c.server.setNetworkPolicyEnforced(false);
  K8sPodBackend backend(c.config(c.server.url()));
  const SupportStatus none = backend.probe().networkModes.at(NetworkMode::None);
  CHECK(none.support == Support::Absent);
  CHECK(backend.probe().networkModes.at(NetworkMode::AllowList).support == Support::Absent);
  CHECK_MESSAGE(none.reason.find("reached listener, api") != std::string::npos, none.reason);
  auto refused = negotiate(l3Request(), [&](BackendId) { return &backend.probe(); });
  REQUIRE_FALSE(refused.ok());
  CHECK_MESSAGE(diagnosticsOf(refused.error()).find("does not enforce") != std::string::npos,
                diagnosticsOf(refused.error()));
  c.checkNoPodLeft();
}

TEST_CASE("k8s canary: a node that runs the pod on the host's kernel gives no L3") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  c.server.setSandboxedProcVersion("");
  K8sPodBackend backend(c.config(c.server.url()));
  CHECK(backend.probe().kernelSeparation.empty());
  CHECK(observedIsolation(backend.probe()) == Isolation::L1);
  CHECK(backend.probe().capabilities.at(Capability::SyscallFiltering).support == Support::Partial);
  auto refused = negotiate(l3Request(), [&](BackendId) { return &backend.probe(); });
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::IsolationUnavailable);
}

TEST_CASE("k8s canary: what the canary observed is cached, so a second probe starts no pod") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.cacheFile = c.dir.root / "cache" / "k8s-pod-probe.json";
  K8sPodBackend first(config);
  const ProbeReport& r = first.probe();
  const std::size_t pods = c.pods();
  CHECK(pods == 1);
  K8sPodBackend second(config);
  CHECK(second.probe().networkModes.at(NetworkMode::None).support == r.networkModes.at(NetworkMode::None).support);
  CHECK(second.probe().kernelSeparation == r.kernelSeparation);
  CHECK(c.pods() == pods);
  c.checkNoPodLeft();
}

TEST_CASE("k8s canary: the API server it tries is the endpoint's host and port, the scheme's port without one") {
  CHECK(apiTarget("https://10.0.0.1").port == 443);
  CHECK(apiTarget("https://10.0.0.1").host == "10.0.0.1");
  CHECK(apiTarget("http://127.0.0.1:8080/").port == 8080);
  CHECK(apiTarget("https://[fd00::1]:6443").host == "fd00::1");
  CHECK(apiTarget("ftp://x").port == 0);  // not tried: the network stays partial
}
