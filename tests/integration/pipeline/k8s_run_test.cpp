// `loopwright run` of a taskpack step asking for isolation L3 on k8s-pod,
// against the local Kubernetes API server: the probe's canary pod showed the
// default-deny policy enforced and gVisor's kernel, so negotiation picks
// k8s-pod; the step runs in its pod (workspace in, findings out), verification
// passes, and no pod is left. Where the policy is not enforced, the step is
// refused with a BLOCKER and nothing runs.
#include <doctest/doctest.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/local_k8s_server.h"

using namespace lw::test;

namespace {

const std::string kStage =
    "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
    "        - name: podded\n"
    "          run: [sh, -c, 'test -f README.md && echo "
    "\"{\\\"findings\\\":[{\\\"ruleId\\\":\\\"x/y\\\",\\\"severity\\\":\\\"notice\\\",\\\"message\\\":\\\"m\\\"}]}\" "
    "> \"$LOOPWRIGHT_OUT/findings.json\"']\n";

struct K8sRun {
  LocalK8sServer server;
  Scratch s;
  fs::path repo = s.root / "repo";

  K8sRun() {
    server.put("/apis/node.k8s.io/v1/runtimeclasses/gvisor",
               boost::json::object{{"apiVersion", "node.k8s.io/v1"},
                                   {"kind", "RuntimeClass"},
                                   {"metadata", boost::json::object{{"name", "gvisor"}}},
                                   {"handler", "runsc"}});
    server.put(
        "/apis/networking.k8s.io/v1/namespaces/ci/networkpolicies/loopwright-default-deny",
        boost::json::object{
            {"apiVersion", "networking.k8s.io/v1"},
            {"kind", "NetworkPolicy"},
            {"metadata", boost::json::object{{"name", "loopwright-default-deny"}, {"namespace", "ci"}}},
            {"spec", boost::json::object{
                         {"podSelector",
                          boost::json::object{
                              {"matchLabels", boost::json::object{{"app.kubernetes.io/managed-by", "loopwright"}}}}},
                         {"policyTypes", boost::json::array{"Ingress", "Egress"}}}}});
    makeRepo(repo, {{"README.md", "hello\n"},
                    {".loopwright/taskpack.yaml",
                     taskpack(kStage, "  isolation: L3\n  sandbox: {preferredBackends: [k8s-pod]}\n")}});
  }
  CliRun run() {
    writeFile(s.root / "kubeconfig",
              "apiVersion: v1\nkind: Config\ncurrent-context: ci\n"
              "clusters: [{name: local, cluster: {server: '" +
                  server.url() +
                  "'}}]\n"
                  "users: [{name: runner, user: {token: " +
                  LocalK8sServer::kToken +
                  "}}]\n"
                  "contexts: [{name: ci, context: {cluster: local, user: runner, namespace: ci}}]\n");
    writeFile(s.root / "host.yaml",
              "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
              "kubernetes: {namespace: ci, runtimeClassName: gvisor, image: 'ghcr.io/acme/tools@sha256:" +
                  std::string(64, 'a') + "', kubeconfig: '" + (s.root / "kubeconfig").string() + "'}\n");
    return runDispatch(
        s, repo,
        {{"LOOPWRIGHT_HOST_CONFIG", (s.root / "host.yaml").string()}, {"XDG_CACHE_HOME", (s.root / "cache").string()}});
  }
  std::size_t requests(const std::string& start) const {
    std::size_t n = 0;
    for (const std::string& r : server.requests()) n += r.starts_with(start) ? 1 : 0;
    return n;
  }
  std::size_t created() const { return requests("POST /api/v1/namespaces/ci/pods"); }
  ~K8sRun() {
    std::string all;
    for (const std::string& v : server.violations()) all += v + "\n";
    CHECK_MESSAGE(all.empty(), all);
    CHECK(server.livePodProcesses() == 0);
  }
};

}  // namespace

TEST_CASE("run: a taskpack asking for L3 on k8s-pod runs in a pod once the canary held: findings out, pod deleted") {
  LW_REQUIRE_HOST(nodeSandboxInstalled(), "bubblewrap gives the local API server's pods their network");
  K8sRun k;
  auto r = k.run();
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  auto step = stepOf(runJson(k.s.root / "out"), "podded");
  CHECK(step.at("backend").as_string() == "k8s-pod");
  CHECK(step.at("outcome").as_string() == "passed");
  CHECK(step.at("verification").at("result").as_string() == "passed");
  REQUIRE(step.at("findings").as_array().size() == 1);
  CHECK(step.at("findings").as_array()[0].at("ruleId").as_string() == "x/y");
  CHECK(k.created() == 2);                                       // the canary's pod and the step's
  CHECK(k.requests("DELETE /api/v1/namespaces/ci/pods/") >= 2);  // each deleted (the canary's, the step's)
}

TEST_CASE("run: where the cluster does not enforce the NetworkPolicy an L3 step on k8s-pod is refused, no step pod") {
  K8sRun k;
  k.server.setNetworkPolicyEnforced(false);
  auto r = k.run();
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  auto step = stepOf(runJson(k.s.root / "out"), "podded");
  CHECK(step.at("outcome").as_string() == "refused");
  const std::string blocker(step.at("blocker").as_string());
  CHECK(blocker.starts_with("BLOCKER: no sandbox backend gives step s/podded what its policy requires"));
  CHECK(r.out.find(blocker) != std::string::npos);
  const std::string why(step.at("backendsRefused").as_array().at(0).as_string());
  CHECK_MESSAGE(why.find("network mode none is absent (the canary pod reached listener, api") != std::string::npos,
                why);
  CHECK(why.find("does not enforce") != std::string::npos);
  CHECK(k.created() == 1);  // the canary's only
}
