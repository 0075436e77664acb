// Where the Kubernetes store's credentials come from: the in-cluster
// service account and the documented kubeconfig subset, with what is
// refused rather than half-applied.
#include <doctest/doctest.h>

#include "core/base64.h"
#include "lease/k8s_access.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::lease::k8s;

namespace {

const char* kKubeconfig = R"(apiVersion: v1
kind: Config
current-context: ci
clusters:
- name: prod
  cluster:
    server: https://k8s.example:6443/
    certificate-authority: certs/ca.pem
contexts:
- name: ci
  context: {cluster: prod, user: runner, namespace: runners}
- name: other
  context: {cluster: prod, user: inline}
users:
- name: runner
  user: {tokenFile: token}
- name: inline
  user: {token: abc}
)";

}  // namespace

TEST_CASE("k8s access: the in-cluster service account") {
  lw::test::TempDir dir;
  dir.write("token", "tok-1\n");
  dir.write("namespace", "runners\n");
  auto access = inClusterAccess("10.0.0.1", "443", dir.root);
  REQUIRE(access.ok());
  CHECK(access->server == "https://10.0.0.1:443");
  CHECK(access->caFile == (dir.root / "ca.crt").string());
  CHECK(access->ns == "runners");
  CHECK(*bearerToken(*access) == "tok-1");
  dir.write("token", "tok-2");  // rotated by the kubelet
  CHECK(*bearerToken(*access) == "tok-2");
  CHECK(inClusterAccess("fd00::1", "443", dir.root)->server == "https://[fd00::1]:443");
  auto outside = inClusterAccess("", "", dir.root);
  REQUIRE_FALSE(outside.ok());
  CHECK(outside.error().code == ErrorCode::LeaseUnavailable);
}

TEST_CASE("k8s access: a kubeconfig's current context, its files relative to the kubeconfig") {
  lw::test::TempDir dir;
  auto access = kubeconfigAccess(kKubeconfig, dir.root / "config", "");
  REQUIRE(access.ok());
  CHECK(access->server == "https://k8s.example:6443");
  CHECK(access->caFile == (dir.root / "certs/ca.pem").string());
  CHECK(access->tokenFile == (dir.root / "token").string());
  CHECK(access->ns == "runners");
  auto other = kubeconfigAccess(kKubeconfig, dir.root / "config", "other");
  REQUIRE(other.ok());
  CHECK(*bearerToken(*other) == "abc");
  CHECK(other->ns == "");
}

TEST_CASE("k8s access: certificate-authority-data is decoded into the PEM the transport trusts") {
  std::string config = std::string(kKubeconfig);
  config.replace(config.find("certificate-authority: certs/ca.pem"), 35,
                 "certificate-authority-data: " + lw::base64Encode("-----BEGIN CERTIFICATE-----"));
  auto access = kubeconfigAccess(config, "/k/config", "");
  REQUIRE(access.ok());
  CHECK(access->caPem == "-----BEGIN CERTIFICATE-----");
}

TEST_CASE("k8s access: what the kubeconfig subset refuses rather than half-applies") {
  struct Case {
    std::string from, to, expected;
  };
  for (const Case& c : {Case{"    certificate-authority: certs/ca.pem", "    insecure-skip-tls-verify: true",
                             "insecure-skip-tls-verify is refused: the lease store always verifies the server"},
                        Case{"user: {tokenFile: token}", "user: {exec: {command: aws}}", "user.exec is not supported"},
                        Case{"user: {tokenFile: token}", "user: {client-certificate: c.pem}",
                             "user.client-certificate is not supported"},
                        Case{"https://k8s.example:6443/", "http://k8s.example:6443",
                             "cluster.server must be an https URL (plain http only to this machine)"},
                        Case{"current-context: ci", "current-context: nope", "contexts has no context \"nope\""}}) {
    CAPTURE(c.expected);
    std::string config = kKubeconfig;
    config.replace(config.find(c.from), c.from.size(), c.to);
    auto access = kubeconfigAccess(config, "/k/config", "");
    REQUIRE_FALSE(access.ok());
    CHECK(access.error().code == ErrorCode::UsageError);
    CHECK(access.error().message == "/k/config: " + c.expected);
  }
}
