// A local Kubernetes API server with the namespace "ci" the k8s-pod tests
// run in: its RuntimeClass and default-deny NetworkPolicy on demand, the
// backend's config for it, a step's spec, and the checks that no pod is
// left and that every request was valid against Kubernetes' OpenAPI.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "core/http_curl.h"
#include "sandbox/k8s/k8s_pod_backend.h"
#include "sandbox/k8s/k8s_pod_plan.h"
#include "sandbox/k8s/k8s_pods_api.h"
#include "support/local_k8s_server.h"
#include "support/temp_dir.h"

namespace lw::test {

namespace k8s_pod_cluster {
namespace json = boost::json;
namespace fs = std::filesystem;
using sandbox::StepSpec;
using sandbox::k8s::ClusterEndpoint;
using sandbox::k8s::K8sPodConfig;
using sandbox::k8s::kDefaultDenyPolicyName;
using sandbox::k8s::listPods;
using sandbox::k8s::planDefaultDenyPolicy;
using sandbox::k8s::sweepSelector;

constexpr const char* kPods = "/api/v1/namespaces/ci/pods";

struct PodCluster {
  lw::test::LocalK8sServer server;
  lw::test::TempDir dir;
  fs::path workspace = dir.root / "ws";
  fs::path out = dir.root / "out";

  PodCluster() {
    fs::create_directories(workspace / "src");
    fs::create_directories(out);
    std::ofstream(workspace / "src" / "main.c") << "int main(void) { return 0; }\n";
  }
  void runtimeClass(const std::string& handler) {
    server.put("/apis/node.k8s.io/v1/runtimeclasses/gvisor",
               json::object{{"apiVersion", "node.k8s.io/v1"},
                            {"kind", "RuntimeClass"},
                            {"metadata", json::object{{"name", "gvisor"}}},
                            {"handler", handler}});
  }
  void denyPolicy() {
    server.put("/apis/networking.k8s.io/v1/namespaces/ci/networkpolicies/" + std::string(kDefaultDenyPolicyName),
               planDefaultDenyPolicy("ci", std::nullopt));
  }
  K8sPodConfig config(const std::string& url) const {
    K8sPodConfig c;
    c.endpoint = ClusterEndpoint{url, [] { return Result<std::string>(lw::test::LocalK8sServer::kToken); },
                                 std::chrono::seconds(5)};
    c.transport = std::make_shared<http::CurlTransport>(http::Policy{});
    c.ns = "ci";
    c.runtimeClassName = "gvisor";
    c.image = "ghcr.io/acme/tools@sha256:" + std::string(64, 'a');
    c.runLabel = "4242";
    c.startTimeout = std::chrono::seconds(10);
    c.canaryTimeout = std::chrono::seconds(30);
    return c;
  }
  StepSpec step(std::vector<std::string> argv) const {
    StepSpec s;
    s.argv = std::move(argv);
    s.workspace = workspace;
    s.outDir = out;
    s.env = {{"HOME", "/tmp"}, {"LOOPWRIGHT_OUT", out.string()}};
    return s;
  }
  std::size_t pods() const {
    std::size_t n = 0;
    for (const std::string& r : server.requests()) n += r.starts_with("POST " + std::string(kPods)) ? 1 : 0;
    return n;
  }
  std::vector<std::string> livePods() const {
    K8sPodConfig c = config(server.url());
    auto names = listPods(*c.transport, c.endpoint, "ci", sweepSelector("4242"));
    REQUIRE(names.ok());
    return *names;
  }
  // A pod was created, every one is deleted, and no process of one is left.
  void checkNoPodLeft() const {
    CHECK(pods() > 0);
    CHECK(livePods().empty());
    CHECK(server.livePodProcesses() == 0);
  }
  ~PodCluster() {
    std::string all;
    for (const std::string& v : server.violations()) all += v + "\n";
    CHECK_MESSAGE(all.empty(), all);
  }
};

}  // namespace k8s_pod_cluster

using k8s_pod_cluster::kPods;
using k8s_pod_cluster::PodCluster;

}  // namespace lw::test
