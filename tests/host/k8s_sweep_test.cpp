// What a killed loopwright leaves on the cluster: the k8s-pod pods of its
// job, which the job-completed hook deletes by their run label (and only
// those: another job's pods stay), through the host config's kubeconfig.
#include <doctest/doctest.h>

#include <fstream>

#include "core/http_curl.h"
#include "host/job_cleanup.h"
#include "host/k8s_pod_setup.h"
#include "sandbox/k8s/k8s_pod_plan.h"
#include "sandbox/k8s/k8s_pods_api.h"
#include "support/local_k8s_server.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::sandbox::k8s;

namespace {

// A pod of `job` as k8s-pod creates it, left running as a SIGKILLed loopwright leaves it.
std::string leavePod(lw::test::LocalK8sServer& server, const std::string& job, const std::string& step) {
  PodPlanInput in;
  in.spec.argv = {"true"};
  in.image = "ghcr.io/acme/tools@sha256:" + std::string(64, 'a');
  in.ns = "ci";
  in.runLabel = host::k8sJobLabel(job);
  in.stepLabel = step;
  in.podName = "lw-" + in.runLabel + "-" + step;
  in.runtimeClassName = "gvisor";
  http::CurlTransport transport{http::Policy{}};
  ClusterEndpoint endpoint{server.url(), [] { return Result<std::string>(lw::test::LocalK8sServer::kToken); }};
  auto created = createPod(transport, endpoint, planPod(in));
  REQUIRE_MESSAGE(created.ok(), created.error().message);
  return in.podName;
}

}  // namespace

TEST_CASE("k8s sweep: job-completed deletes the pods a killed loopwright left for its job, no other") {
  lw::test::LocalK8sServer server;
  server.put("/apis/node.k8s.io/v1/runtimeclasses/gvisor",
             boost::json::object{{"apiVersion", "node.k8s.io/v1"},
                                 {"kind", "RuntimeClass"},
                                 {"metadata", boost::json::object{{"name", "gvisor"}}},
                                 {"handler", "runsc"}});
  const std::string mine = leavePod(server, "runner-1/77-1/review", "a1");
  const std::string other = leavePod(server, "runner-2/77-1/lint", "b2");
  lw::test::TempDir dir;
  const std::string kubeconfig = (dir.root / "kubeconfig").string();
  std::ofstream(kubeconfig) << "apiVersion: v1\nkind: Config\ncurrent-context: ci\n"
                            << "clusters: [{name: local, cluster: {server: '" << server.url() << "'}}]\n"
                            << "users: [{name: runner, user: {token: " << lw::test::LocalK8sServer::kToken << "}}]\n"
                            << "contexts: [{name: ci, context: {cluster: local, user: runner, namespace: ci}}]\n";
  host::CleanupOptions o;
  o.job = "runner-1/77-1/review";
  o.docker = false;
  o.tempRoots = {dir.root.string()};
  o.kubernetes = K8sPodHostConfig{"ci", "gvisor", "", kubeconfig, ""};
  host::CleanupReport report = host::cleanUpJob(Environment{}, o);
  CHECK(report.pods == std::vector<std::string>{"ci/" + mine});
  CHECK_FALSE(server.object("/api/v1/namespaces/ci/pods/" + mine).has_value());
  CHECK(server.object("/api/v1/namespaces/ci/pods/" + other).has_value());
  CHECK(server.violations() == std::vector<std::string>{});
}
