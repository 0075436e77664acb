#include <doctest/doctest.h>

#include <algorithm>

#include "policy/load/host_config_loader.h"
#include "policy/load/taskpack_loader.h"
#include "policy/resolve/resolve.h"

using namespace lw;

namespace {

const std::string kHome = "/home/alice";

Taskpack load(const std::string& specBody) {
  std::string text = "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + specBody +
                     "  stages:\n    - name: review\n      on: [pull_request.opened]\n      steps:\n"
                     "        - {name: a, run: [x]}\n"
                     "        - {name: b, run: [x], sandbox: {networkMode: loopback-only}}\n";
  auto r = parseTaskpack(text, "tp.yaml", TaskpackLoadOptions{kHome});
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().diagnostics.front().message));
  return *r;
}

// A taskpack whose steps carry no sandbox override at all.
Taskpack loadPlain(const std::string& specBody) {
  std::string text = "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + specBody +
                     "  stages:\n    - name: review\n      on: [pull_request.opened]\n      steps:\n"
                     "        - {name: a, run: [x]}\n        - {name: b, run: [x], role: author}\n";
  auto r = parseTaskpack(text, "tp.yaml", TaskpackLoadOptions{kHome});
  REQUIRE(r.ok());
  return *r;
}

HostConfig noFloor() { return HostConfig{}; }

HostConfig floorOf(Floor f) {
  HostConfig h;
  h.present = true;
  h.file = "/etc/loopwright/host.yaml";
  h.floor = std::move(f);
  return h;
}

bool contains(const auto& list, const auto& item) { return std::find(list.begin(), list.end(), item) != list.end(); }

}  // namespace

TEST_CASE("resolve: GITHUB_ACTIONS=true with spec.sandbox omitted runs direct-dedicated") {
  auto r = resolvePolicies(loadPlain(""), noFloor(), {true, kHome});
  REQUIRE(r.ok());
  REQUIRE(r->size() == 2);
  for (const EffectiveStep& s : *r) {
    CHECK(s.sandbox.preferredBackends == std::vector{BackendId::DirectDedicated});
    CHECK(s.sandbox.networkMode == NetworkMode::AllowOutbound);
    CHECK(s.sandbox.requiredCapabilities == std::vector{Capability::ProcessTreeCleanup});
    CHECK(s.sandbox.allowDedicatedDirectOverride);
    CHECK(s.origins.at("preferredBackends").find("GITHUB_ACTIONS=true") != std::string::npos);
  }
}

TEST_CASE("resolve: without GITHUB_ACTIONS an omitted policy negotiates fail-closed with none") {
  auto r = resolvePolicies(loadPlain(""), noFloor(), {false, kHome});
  REQUIRE(r.ok());
  for (const EffectiveStep& s : *r) {
    CHECK(s.sandbox.preferredBackends == std::vector{BackendId::MacosSeatbelt, BackendId::LinuxBwrap,
                                                     BackendId::LinuxLandlock, BackendId::LinuxGvisor});
    CHECK(s.sandbox.networkMode == NetworkMode::None);
    CHECK_FALSE(s.sandbox.allowDedicatedDirectOverride);
    CHECK(s.origins.at("networkMode").find("fail-closed") != std::string::npos);
  }
}

TEST_CASE("resolve: networkMode omitted in an explicit policy means none, also under Actions") {
  auto r = resolvePolicies(loadPlain("  sandbox: {preferredBackends: [linux-bwrap]}\n"), noFloor(), {true, kHome});
  REQUIRE(r.ok());
  CHECK((*r)[0].sandbox.networkMode == NetworkMode::None);
  CHECK((*r)[0].sandbox.preferredBackends == std::vector{BackendId::LinuxBwrap});
  CHECK_FALSE((*r)[0].sandbox.allowDedicatedDirectOverride);
}

TEST_CASE("resolve: a step override replaces fields, deniedReadPaths add up") {
  auto r = resolvePolicies(load("  sandbox: {networkMode: allow-outbound, deniedReadPaths: [/srv/secret]}\n"),
                           noFloor(), {false, kHome});
  REQUIRE(r.ok());
  const EffectiveStep& a = (*r)[0];
  const EffectiveStep& b = (*r)[1];
  CHECK(a.sandbox.networkMode == NetworkMode::AllowOutbound);
  CHECK(b.sandbox.networkMode == NetworkMode::LoopbackOnly);
  CHECK(b.origins.at("networkMode").rfind("step sandbox override", 0) == 0);
  CHECK(contains(a.sandbox.deniedReadPaths, std::string("/srv/secret")));
  CHECK(contains(a.sandbox.deniedReadPaths, std::string("/home/alice/.ssh")));
  CHECK(contains(a.sandbox.deniedReadPaths, std::string("/home/alice/.aws")));
  CHECK(contains(a.sandbox.deniedReadPaths, std::string("/home/alice/.config/gh")));
}

TEST_CASE("resolve: a step override under Actions makes that step's policy explicit") {
  auto r = resolvePolicies(load(""), noFloor(), {true, kHome});
  REQUIRE(r.ok());
  CHECK((*r)[0].sandbox.preferredBackends == std::vector{BackendId::DirectDedicated});
  CHECK((*r)[1].sandbox.preferredBackends ==
        std::vector{BackendId::MacosSeatbelt, BackendId::LinuxBwrap, BackendId::LinuxLandlock, BackendId::LinuxGvisor});
  CHECK((*r)[1].sandbox.networkMode == NetworkMode::LoopbackOnly);
}

TEST_CASE("resolve: built-in protected paths are always there") {
  auto r = resolvePolicies(loadPlain(""), noFloor(), {false, kHome});
  REQUIRE(r.ok());
  for (std::string_view p : kBuiltinProtectedPaths) CHECK(contains((*r)[1].sandbox.protectedPaths, std::string(p)));
}

TEST_CASE("resolve: limits are spec.limits with per-step overrides") {
  std::string text =
      "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n"
      "  limits: {wallTimeMs: 100000, maxToolCalls: 7}\n"
      "  stages:\n    - name: r\n      on: [issues]\n      steps:\n"
      "        - {name: a, run: [x], limits: {wallTimeMs: 2000}}\n";
  auto tp = parseTaskpack(text, "tp.yaml", {kHome});
  REQUIRE(tp.ok());
  auto r = resolvePolicies(*tp, noFloor(), {false, kHome});
  REQUIRE(r.ok());
  CHECK((*r)[0].limits.wallTimeMs == 2000);
  CHECK((*r)[0].limits.maxToolCalls == 7);
  CHECK((*r)[0].limits.maxModelCalls == 256);
}

TEST_CASE("resolve: the floor is never silently applied") {
  SUBCASE("isolation below the floor") {
    Floor f;
    f.minIsolation = Isolation::L2;
    auto r = resolvePolicies(loadPlain("  sandbox: {preferredBackends: [linux-bwrap]}\n  isolation: L1\n"), floorOf(f),
                             {false, kHome});
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::PolicyFloorViolation);
    REQUIRE(r.error().diagnostics.size() == 2);
    CHECK(r.error().diagnostics[0].message ==
          "stage 'review' step 'a' asks for isolation L1, below the minimum L2 required by the "
          "host config floor (/etc/loopwright/host.yaml)");
    CHECK(r.error().diagnostics[0].hint == "set spec.isolation: L2 (or higher) in the taskpack");
  }
  SUBCASE("isolation at or above the floor is accepted") {
    Floor f;
    f.minIsolation = Isolation::L2;
    auto r = resolvePolicies(loadPlain("  sandbox: {preferredBackends: [docker]}\n  isolation: L2\n"), floorOf(f),
                             {false, kHome});
    REQUIRE(r.ok());
    CHECK((*r)[0].sandbox.minIsolation == Isolation::L2);
  }
  SUBCASE("a capability the floor requires is missing") {
    Floor f;
    f.requiredCapabilities = {Capability::NetworkIsolation, Capability::SyscallFiltering};
    auto r = resolvePolicies(loadPlain("  sandbox: {requiredCapabilities: [networkIsolation]}\n"), floorOf(f),
                             {false, kHome});
    REQUIRE(!r.ok());
    CHECK(r.error().diagnostics[0].message.find("does not require syscallFiltering") != std::string::npos);
    CHECK(r.error().diagnostics[0].hint == "add them to requiredCapabilities: [syscallFiltering]");
  }
  SUBCASE("direct-dedicated forbidden even under Actions with an omitted policy") {
    Floor f;
    f.allowDirectDedicated = false;
    auto r = resolvePolicies(loadPlain(""), floorOf(f), {true, kHome});
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::PolicyFloorViolation);
    CHECK(r.error().diagnostics.size() == 2);
    CHECK(r.error().diagnostics[0].message.find("direct-dedicated") != std::string::npos);
  }
  SUBCASE("direct-dedicated listed explicitly and forbidden") {
    Floor f;
    f.allowDirectDedicated = false;
    auto r = resolvePolicies(loadPlain("  sandbox: {preferredBackends: [linux-bwrap, direct-dedicated]}\n"), floorOf(f),
                             {false, kHome});
    REQUIRE(!r.ok());
  }
  SUBCASE("a floor that is met changes nothing") {
    Floor f;
    f.minIsolation = Isolation::L1;
    f.requiredCapabilities = {Capability::NetworkIsolation};
    f.allowDirectDedicated = false;
    auto r = resolvePolicies(loadPlain("  sandbox: {requiredCapabilities: [networkIsolation, processTreeCleanup]}\n"),
                             floorOf(f), {true, kHome});
    REQUIRE(r.ok());
    CHECK_FALSE((*r)[0].sandbox.allowDedicatedDirectOverride);
  }
}

TEST_CASE("resolve: a host config with no floor refuses GitHub Actions' direct-dedicated default") {
  auto host = parseHostConfig("apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\n", "/etc/loopwright/host.yaml");
  REQUIRE(host.ok());
  auto r = resolvePolicies(loadPlain(""), *host, {true, kHome});
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::PolicyFloorViolation);
  REQUIRE(r.error().diagnostics.size() == 2);
  CHECK(r.error().diagnostics[0].message.find("may run on direct-dedicated") != std::string::npos);
  // Without any host config the default stands (a GitHub-hosted runner).
  CHECK(resolvePolicies(loadPlain(""), noFloor(), {true, kHome}).ok());
}

TEST_CASE("resolve: where the isolation level comes from") {
  SUBCASE("the default") {
    auto r = resolvePolicies(loadPlain(""), noFloor(), {false, kHome});
    REQUIRE(r.ok());
    CHECK((*r)[0].sandbox.minIsolation == Isolation::L1);
    CHECK((*r)[0].origins.at("isolation") == "default L1");
  }
  SUBCASE("the taskpack") {
    auto r = resolvePolicies(loadPlain("  isolation: L3\n"), noFloor(), {false, kHome});
    REQUIRE(r.ok());
    CHECK((*r)[0].sandbox.minIsolation == Isolation::L3);
    CHECK((*r)[0].origins.at("isolation") == "taskpack spec.isolation (tp.yaml:5)");
  }
  SUBCASE("a floor asking for L3: a taskpack meets it by asking for L3 (linux-gvisor gives it), as for L2") {
    Floor f;
    f.minIsolation = Isolation::L3;
    auto below = resolvePolicies(loadPlain(""), floorOf(f), {false, kHome});
    REQUIRE_FALSE(below.ok());
    CHECK(below.error().code == ErrorCode::PolicyFloorViolation);
    auto r = resolvePolicies(loadPlain("  isolation: L3\n"), floorOf(f), {false, kHome});
    REQUIRE(r.ok());
    CHECK((*r)[0].sandbox.minIsolation == Isolation::L3);
  }
}

TEST_CASE("resolve: docker is reached only through a host runtime profile") {
  HostConfig h = floorOf(Floor{});
  RuntimeProfile p{"busybox", "busybox@sha256:" + std::string(64, 'a'), {}};
  h.runtimeProfiles.emplace("busybox", p);
  SUBCASE("named and defined") {
    auto r = resolvePolicies(loadPlain("  sandbox: {preferredBackends: [docker], runtimeProfile: busybox}\n"), h,
                             {false, kHome});
    REQUIRE(r.ok());
    REQUIRE((*r)[0].sandbox.runtimeProfile);
    CHECK((*r)[0].sandbox.runtimeProfile->image == p.image);
  }
  SUBCASE("named but not defined on this host") {
    auto r = resolvePolicies(loadPlain("  sandbox: {preferredBackends: [docker], runtimeProfile: alpine}\n"), h,
                             {false, kHome});
    REQUIRE(!r.ok());
    CHECK(r.error().diagnostics[0].message.find("runtime profile 'alpine'") != std::string::npos);
  }
  SUBCASE("docker listed without a profile stays unprovisioned (negotiation refuses it)") {
    auto r = resolvePolicies(loadPlain("  sandbox: {preferredBackends: [docker]}\n"), h, {false, kHome});
    REQUIRE(r.ok());
    CHECK_FALSE((*r)[0].sandbox.runtimeProfile.has_value());
  }
}

TEST_CASE("resolve: stage selection by event and action") {
  Stage s;
  s.on = {"pull_request.opened", "issues", "workflow_dispatch"};
  CHECK(stageMatchesEvent(s, "pull_request", "opened"));
  CHECK_FALSE(stageMatchesEvent(s, "pull_request", "closed"));
  CHECK(stageMatchesEvent(s, "pull_request", ""));
  CHECK(stageMatchesEvent(s, "issues", "labeled"));
  CHECK(stageMatchesEvent(s, "workflow_dispatch", ""));
  CHECK_FALSE(stageMatchesEvent(s, "issue_comment", "created"));
}

TEST_CASE("resolve: ad-hoc policies of sandbox exec face the same floor") {
  Floor f;
  f.requiredCapabilities = {Capability::NetworkIsolation};
  SandboxSpec flags;
  flags.preferredBackends = std::vector{BackendId::LinuxBwrap};
  auto bad = resolveAdHoc(flags, floorOf(f), {false, kHome});
  REQUIRE(!bad.ok());
  CHECK(bad.error().code == ErrorCode::PolicyFloorViolation);
  flags.requiredCapabilities = std::vector{Capability::NetworkIsolation};
  auto good = resolveAdHoc(flags, floorOf(f), {true, kHome});
  REQUIRE(good.ok());
  CHECK(good->networkMode == NetworkMode::None);
}
