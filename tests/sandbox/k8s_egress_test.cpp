// networkMode allow-list on k8s-pod (docs/kubernetes.md): the step starts
// only once the pod's egress relay listens on its 127.0.0.1:3128; a relay
// that never listens fails the launch and the pod is deleted. The relay's
// path to the run's proxy end to end is tests/integration/pipeline/k8s_run_test.cpp.
#include <doctest/doctest.h>

#include "sandbox/k8s/k8s_pod_backend.h"
#include "support/k8s_pod_cluster.h"

using namespace lw;
using namespace lw::sandbox;
using namespace lw::sandbox::k8s;
namespace fs = std::filesystem;
using lw::test::PodCluster;

namespace {

StepSpec allowListStep(const PodCluster& c) {
  StepSpec spec = c.step({"sh", "-c", "echo ran > \"$LOOPWRIGHT_OUT/ran\""});
  spec.network = NetworkMode::AllowList;
  spec.egressSocket = c.dir.root / "proxy" / "proxy.sock";  // never reached: the relay does not listen
  return spec;
}

}  // namespace

TEST_CASE("k8s pod backend: an allow-list step whose egress relay never listens fails the launch and never starts") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.initBinary = "/bin/true";  // copied in as the init: it exits without listening
  K8sPodBackend backend(config);
  auto run = backend.launch(allowListStep(c));
  REQUIRE_MESSAGE(run.ok(), run.error().message);
  process::ExitInfo exit = (*run)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  REQUIRE(exit.launchFailure.has_value());
  CHECK(exit.launchFailure->code == ErrorCode::SandboxLaunchFailed);
  CHECK_MESSAGE(exit.launchFailure->message.find("the egress relay in pod ci/") == 0, exit.launchFailure->message);
  CHECK(exit.launchFailure->message.find("it ended before listening") != std::string::npos);
  CHECK_FALSE(fs::exists(c.out / "ran"));
  c.checkNoPodLeft();
}

TEST_CASE("k8s pod backend: an allow-list step is refused before any pod without the init or the run's proxy") {
  PodCluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  K8sPodConfig config = c.config(c.server.url());
  config.initBinary = c.dir.root / "absent" / "loopwright-container-init";
  K8sPodBackend noInit(config);
  auto refused = noInit.launch(allowListStep(c));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("loopwright-container-init is not installed") == 0);
  CHECK(refused.error().message.find("the egress relay cannot be carried into the pod") != std::string::npos);
  StepSpec noProxy = allowListStep(c);
  noProxy.egressSocket.clear();
  auto unproxied = noInit.launch(noProxy);
  REQUIRE_FALSE(unproxied.ok());
  CHECK(unproxied.error().code == ErrorCode::SandboxCapabilityInsufficient);
  CHECK(c.pods() == 0);
}
