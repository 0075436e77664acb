// The k8s-pod pre-flight against the local Kubernetes API server (every
// request checked against the OpenAPI description): a step is refused when
// the RuntimeClass is missing or runs runc, when no NetworkPolicy denies,
// when the API does not answer or forbids the reads — never downgraded.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "core/http_curl.h"
#include "sandbox/k8s/k8s_cluster.h"
#include "sandbox/k8s/k8s_pod_plan.h"
#include "support/local_k8s_server.h"

using namespace lw;
using namespace lw::sandbox;
using namespace lw::sandbox::k8s;
namespace json = boost::json;

namespace {

struct Cluster {
  lw::test::LocalK8sServer server;
  http::CurlTransport transport{http::Policy{}};
  std::string token = lw::test::LocalK8sServer::kToken;
  json::object labels{{kManagedByLabel, "loopwright"}, {kRunLabel, "7"}, {kStepLabel, "review"}};

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
  Result<Preflight> check() {
    ClusterEndpoint endpoint{server.url(), [this]() -> Result<std::string> { return token; }, std::chrono::seconds(5)};
    return preflightFromCluster(transport, endpoint, "gvisor", "ci", labels);
  }
  ~Cluster() { CHECK(server.violations() == std::vector<std::string>{}); }
};

void checkRefused(const Result<Preflight>& r, ErrorCode code, const std::string& part) {
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == code);
  CHECK_MESSAGE(r.error().message.find(part) != std::string::npos, r.error().message);
}

}  // namespace

TEST_CASE("k8s cluster: gVisor RuntimeClass and a default-deny policy pass the pre-flight") {
  Cluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  auto ok = c.check();
  REQUIRE(ok.ok());
  CHECK(ok->handler == "runsc");
  CHECK(ok->denyPolicy == kDefaultDenyPolicyName);
}

TEST_CASE("k8s cluster: refused when the RuntimeClass is missing or runs runc, or no policy denies") {
  Cluster c;
  c.denyPolicy();
  checkRefused(c.check(), ErrorCode::SandboxCapabilityInsufficient, "the RuntimeClass gvisor does not exist");
  c.runtimeClass("runc");
  checkRefused(c.check(), ErrorCode::SandboxCapabilityInsufficient, "has the handler \"runc\"");
  Cluster bare;
  bare.runtimeClass("runsc");
  checkRefused(bare.check(), ErrorCode::SandboxCapabilityInsufficient, "no NetworkPolicy in ci denies");
}

TEST_CASE("k8s cluster: refused when the API forbids the reads, refuses the token, or is down") {
  Cluster c;
  c.runtimeClass("runsc");
  c.denyPolicy();
  c.token = lw::test::LocalK8sServer::kForbiddenToken;
  checkRefused(c.check(), ErrorCode::SandboxBackendUnavailable,
               "with HTTP 403: runtimeclasses.node.k8s.io \"gvisor\" is forbidden: User "
               "\"system:serviceaccount:ci:loopwright\" cannot get resource \"runtimeclasses\" in API group "
               "\"node.k8s.io\" at the cluster scope");
  c.token = "stale";
  checkRefused(c.check(), ErrorCode::SandboxBackendUnavailable, "with HTTP 401: Unauthorized");
  c.token = lw::test::LocalK8sServer::kToken;
  c.server.setUnavailable(true);
  checkRefused(c.check(), ErrorCode::SandboxBackendUnavailable, "with HTTP 503");
}

TEST_CASE("k8s cluster: refused when the API server does not answer") {
  http::CurlTransport transport{http::Policy{}};
  ClusterEndpoint endpoint{"http://127.0.0.1:1", []() -> Result<std::string> { return std::string("t"); },
                           std::chrono::seconds(2)};
  checkRefused(
      preflightFromCluster(transport, endpoint, "gvisor", "ci", json::object{}), ErrorCode::SandboxBackendUnavailable,
      "the Kubernetes API server at http://127.0.0.1:1 did not answer GET /apis/node.k8s.io/v1/runtimeclasses/gvisor");
}
