#include <doctest/doctest.h>

#include "policy/load/host_config_loader.h"

using namespace lw;

namespace {
const std::string kDigest = std::string(64, 'b');
}

TEST_CASE("host config: a full config loads") {
  std::string text =
      "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
      "floor:\n  minIsolation: L2\n  requiredCapabilities: [networkIsolation]\n"
      "  allowDirectDedicated: false\n"
      "runtimeProfiles:\n  busybox:\n    image: \"busybox@sha256:" +
      kDigest +
      "\"\n"
      "stateDir: /var/lib/lw\n";
  auto r = parseHostConfig(text, "host.yaml");
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().diagnostics.front().message));
  CHECK(r->present);
  CHECK(r->floor.minIsolation == Isolation::L2);
  CHECK(r->floor.requiredCapabilities == std::vector{Capability::NetworkIsolation});
  CHECK_FALSE(r->floor.allowDirectDedicated);
  CHECK(r->runtimeProfiles.at("busybox").image == "busybox@sha256:" + kDigest);
  CHECK(r->stateDir == "/var/lib/lw");
}

TEST_CASE("host config: a tag without a digest is an error with its position") {
  std::string text =
      "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n"
      "runtimeProfiles:\n  py:\n    image: python:3.12\n";
  auto r = parseHostConfig(text, "host.yaml");
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::HostConfigInvalid);
  REQUIRE(r.error().diagnostics.size() == 1);
  CHECK(r.error().diagnostics[0].location.line == 5);
  CHECK(r.error().diagnostics[0].message == "image 'python:3.12' is not pinned by digest");
}

TEST_CASE("host config: pinned image references") {
  CHECK(isPinnedImage("busybox@sha256:" + kDigest));
  CHECK(isPinnedImage("ghcr.io/org/img:1.2@sha256:" + kDigest));
  CHECK(isPinnedImage("sha256:" + kDigest));
  CHECK_FALSE(isPinnedImage("busybox:latest"));
  CHECK_FALSE(isPinnedImage("busybox@sha256:" + kDigest.substr(1)));
  CHECK_FALSE(isPinnedImage("busybox@sha256:" + std::string(64, 'G')));
  CHECK_FALSE(isPinnedImage("xsha256:" + kDigest));
}

TEST_CASE("host config: missing file means no floor unless it was named") {
  auto none = loadHostConfig("/nonexistent/host.yaml", false);
  REQUIRE(none.ok());
  CHECK_FALSE(none->present);
  CHECK(none->floor.allowDirectDedicated);
  auto named = loadHostConfig("/nonexistent/host.yaml", true);
  REQUIRE(!named.ok());
  CHECK(named.error().code == ErrorCode::HostConfigInvalid);
}

TEST_CASE("host config: a host config forbids direct-dedicated unless its floor allows it") {
  const std::string head = "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n";
  auto bare = parseHostConfig(head, "host.yaml");
  REQUIRE(bare.ok());
  CHECK_FALSE(bare->floor.allowDirectDedicated);
  auto floorWithout = parseHostConfig(head + "floor: {minIsolation: L1}\n", "host.yaml");
  REQUIRE(floorWithout.ok());
  CHECK_FALSE(floorWithout->floor.allowDirectDedicated);
  auto allowed = parseHostConfig(head + "floor: {allowDirectDedicated: true}\n", "host.yaml");
  REQUIRE(allowed.ok());
  CHECK(allowed->floor.allowDirectDedicated);
}

TEST_CASE("host config: path from the environment") {
  CHECK(hostConfigPath(Environment{}) == "/etc/loopwright/host.yaml");
  Environment env;
  env.set("LOOPWRIGHT_HOST_CONFIG", "/x/h.yaml");
  CHECK(hostConfigPath(env) == "/x/h.yaml");
}

TEST_CASE("host config: every problem at once") {
  std::string text =
      "apiVersion: v2\nkind: HostConfig\nfloor: {minIsolation: L4, allowDirect: true}\n"
      "stateDir: relative\nextra: 1\n";
  auto r = parseHostConfig(text, "host.yaml");
  REQUIRE(!r.ok());
  CHECK(r.error().diagnostics.size() == 5);
}

TEST_CASE("host config: leases on Kubernetes, with a namespace and a name prefix checked where they are read") {
  std::string head = "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n";
  auto r = parseHostConfig(head +
                               "leases:\n  store: kubernetes\n  namespace: ci-runners\n"
                               "  kubeconfig: /etc/lw/kubeconfig\n  context: ci\n  namePrefix: lw-\n",
                           "host.yaml");
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().diagnostics.front().message));
  CHECK(r->leases.store == LeaseStoreKind::Kubernetes);
  CHECK(r->leases.kubeNamespace == "ci-runners");
  CHECK(r->leases.kubeconfig == "/etc/lw/kubeconfig");
  CHECK(r->leases.kubeContext == "ci");
  CHECK(r->leases.namePrefix == "lw-");
  auto bad =
      parseHostConfig(head + "leases:\n  store: kubernetes\n  namespace: CI_Runners\n  namePrefix: -x\n", "host.yaml");
  REQUIRE_FALSE(bad.ok());
  REQUIRE(bad.error().diagnostics.size() == 2);
  CHECK(bad.error().diagnostics[0].message.find("'CI_Runners' is not a namespace name") != std::string::npos);
  CHECK(bad.error().diagnostics[1].message.find("'-x' is not 1 to 63 of a-z") != std::string::npos);
}

TEST_CASE("host config: the k8s-pod cluster (kubernetes:) loads, and refuses a tag or a missing RuntimeClass") {
  const std::string head = "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n";
  auto none = parseHostConfig(head, "host.yaml");
  REQUIRE(none.ok());
  CHECK_FALSE(none->kubernetes.has_value());
  auto r = parseHostConfig(
      head + "kubernetes:\n  namespace: ci-steps\n  runtimeClassName: gvisor\n  image: \"tools@sha256:" + kDigest +
          "\"\n  kubeconfig: /etc/lw/kubeconfig\n",
      "host.yaml");
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().diagnostics.front().message));
  REQUIRE(r->kubernetes.has_value());
  CHECK(r->kubernetes->ns == "ci-steps");
  CHECK(r->kubernetes->runtimeClassName == "gvisor");
  CHECK(r->kubernetes->image == "tools@sha256:" + kDigest);
  CHECK(r->kubernetes->kubeconfig == "/etc/lw/kubeconfig");
  auto tag = parseHostConfig(head + "kubernetes:\n  namespace: ci\n  runtimeClassName: gvisor\n  image: tools:1\n",
                             "host.yaml");
  REQUIRE_FALSE(tag.ok());
  CHECK(tag.error().diagnostics.front().message == "image 'tools:1' is not pinned by digest");
  auto missing =
      parseHostConfig(head + "kubernetes:\n  namespace: ci\n  image: \"tools@sha256:" + kDigest + "\"\n", "host.yaml");
  CHECK_FALSE(missing.ok());
}
