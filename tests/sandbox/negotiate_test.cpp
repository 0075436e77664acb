#include <doctest/doctest.h>

#include <map>
#include <string>

#include "sandbox/negotiate.h"

using namespace lw;
using namespace lw::sandbox;

namespace {

ProbeReport report(BackendId id, bool available = true) {
  ProbeReport r;
  r.backend = id;
  r.available = available;
  if (!available) r.unavailableReason = "no bwrap here";
  for (Capability c : kAllCapabilities) r.capabilities[c] = {available ? Support::Enforced : Support::Absent, "x"};
  for (NetworkMode m : kAllNetworkModes) r.networkModes[m] = {available ? Support::Enforced : Support::Absent, "x"};
  return r;
}

struct Host {
  std::map<BackendId, ProbeReport> reports;
  std::vector<BackendId> probed;
  ProbeFor probeFor() {
    return [this](BackendId id) -> const ProbeReport* {
      probed.push_back(id);
      auto it = reports.find(id);
      return it == reports.end() ? nullptr : &it->second;
    };
  }
};

NegotiationRequest request(std::vector<BackendId> order) {
  NegotiationRequest r;
  r.policy.preferredBackends = std::move(order);
  r.policy.requiredCapabilities = {Capability::FilesystemWriteContainment, Capability::SyscallFiltering};
  return r;
}

}  // namespace

TEST_CASE("negotiate: the first backend enforcing everything wins and later ones are not probed") {
  Host h;
  h.reports[BackendId::LinuxBwrap] = report(BackendId::LinuxBwrap);
  h.reports[BackendId::LinuxLandlock] = report(BackendId::LinuxLandlock);
  auto r =
      negotiate(request({BackendId::MacosSeatbelt, BackendId::LinuxBwrap, BackendId::LinuxLandlock}), h.probeFor());
  REQUIRE(r.ok());
  CHECK((r->backend == BackendId::LinuxBwrap));
  CHECK(r->enforced.size() == kAllCapabilities.size());
  CHECK((h.probed == std::vector<BackendId>{BackendId::MacosSeatbelt, BackendId::LinuxBwrap}));
  REQUIRE(r->refused.size() == 1);
  CHECK(r->refused[0].reason == "not built into this loopwright");
}

TEST_CASE("negotiate: partial counts as missing, for capabilities and the network mode") {
  Host h;
  ProbeReport bwrap = report(BackendId::LinuxBwrap);
  bwrap.networkModes[NetworkMode::AllowOutbound] = {Support::Partial, "host loopback reachable"};
  ProbeReport landlock = report(BackendId::LinuxLandlock);
  landlock.capabilities[Capability::SyscallFiltering] = {Support::Partial, "old kernel"};
  h.reports = {{BackendId::LinuxBwrap, bwrap}, {BackendId::LinuxLandlock, landlock}};
  NegotiationRequest req = request({BackendId::LinuxBwrap, BackendId::LinuxLandlock});
  req.policy.networkMode = NetworkMode::AllowOutbound;
  auto r = negotiate(req, h.probeFor());
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::SandboxCapabilityInsufficient);
  REQUIRE(r.error().diagnostics.size() == 2);
  CHECK(r.error().diagnostics[0].message ==
        "linux-bwrap: network mode allow-outbound is partial (host loopback reachable)");
  CHECK(r.error().diagnostics[1].message == "linux-landlock: syscallFiltering is partial (old kernel)");
  CHECK(r.error().diagnostics[1].location.path == "preferredBackends[1]");
}

TEST_CASE("negotiate: nothing runs here is SANDBOX_BACKEND_UNAVAILABLE naming each backend") {
  Host h;
  h.reports[BackendId::LinuxBwrap] = report(BackendId::LinuxBwrap, false);
  auto r = negotiate(request({BackendId::LinuxBwrap, BackendId::MacosSeatbelt}), h.probeFor());
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::SandboxBackendUnavailable);
  REQUIRE(r.error().diagnostics.size() == 2);
  CHECK(r.error().diagnostics[0].message == "linux-bwrap: unavailable: no bwrap here");
  CHECK(r.error().diagnostics[1].message == "macos-seatbelt: not built into this loopwright");
}

TEST_CASE("negotiate: policy refusals come before any probe") {
  Host h;
  for (BackendId id : kAllBackends) h.reports[id] = report(id);
  SUBCASE("direct-dedicated needs the override") {
    auto r = negotiate(request({BackendId::DirectDedicated}), h.probeFor());
    REQUIRE(!r.ok());
    CHECK(h.probed.empty());
    NegotiationRequest req = request({BackendId::DirectDedicated});
    req.policy.allowDedicatedDirectOverride = true;
    CHECK(negotiate(req, h.probeFor()).ok());
  }
  SUBCASE("docker needs a runtime profile or an explicit image") {
    auto r = negotiate(request({BackendId::Docker}), h.probeFor());
    REQUIRE(!r.ok());
    CHECK(r.error().diagnostics[0].message ==
          "docker: docker runs only a runtime profile pinned by the host admin or an explicit --image");
    NegotiationRequest req = request({BackendId::Docker});
    req.explicitImage = true;
    CHECK(negotiate(req, h.probeFor()).ok());
  }
  SUBCASE("minIsolation refuses lower levels") {
    NegotiationRequest req = request({BackendId::LinuxBwrap});
    req.policy.minIsolation = Isolation::L2;
    auto r = negotiate(req, h.probeFor());
    REQUIRE(!r.ok());
    CHECK(r.error().diagnostics[0].message == "linux-bwrap: provides isolation L1, the policy requires at least L2");
  }
}

TEST_CASE("negotiate: L2 where docker cannot give it is ISOLATION_UNAVAILABLE naming what is missing") {
  Host h;
  for (BackendId id : kAllBackends) h.reports[id] = report(id);
  auto l2 = [](std::vector<BackendId> order) {
    NegotiationRequest req = request(std::move(order));
    req.policy.minIsolation = Isolation::L2;
    req.policy.runtimeProfile = RuntimeProfile{"ci", "registry.example/ci@sha256:00", {}};
    return req;
  };
  SUBCASE("no reachable engine") {
    h.reports[BackendId::Docker] = report(BackendId::Docker, false);
    h.reports[BackendId::Docker].unavailableReason = "cannot reach the Docker engine at unix:///nowhere.sock";
    auto r = negotiate(l2({BackendId::LinuxBwrap, BackendId::Docker}), h.probeFor());
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::IsolationUnavailable);
    CHECK(r.error().message ==
          "the step asks for isolation L2 (container: its own root filesystem, from an image the host admin "
          "pinned); no backend here gives L2: docker: unavailable: cannot reach the Docker engine at "
          "unix:///nowhere.sock");
    CHECK(r.error().hint.find("The step is never run at a lower level instead") != std::string::npos);
    CHECK(r.error().diagnostics[0].message == "linux-bwrap: provides isolation L1, the policy requires at least L2");
  }
  SUBCASE("no pinned runtime profile") {
    NegotiationRequest req = l2({BackendId::Docker});
    req.policy.runtimeProfile.reset();
    auto r = negotiate(req, h.probeFor());
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::IsolationUnavailable);
    CHECK(r.error().message.ends_with(
        "no backend here gives L2: docker: docker runs only a runtime profile pinned by the host admin or an "
        "explicit --image"));
  }
  SUBCASE("no L2 backend listed") {
    auto r = negotiate(l2({BackendId::LinuxBwrap, BackendId::LinuxLandlock}), h.probeFor());
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::IsolationUnavailable);
    CHECK(r.error().message.ends_with(
        "no backend here gives L2: preferredBackends lists no backend that gives it (docker, linux-gvisor, k8s-pod "
        "would)"));
  }
  SUBCASE("docker runs but lacks a capability: that is not the level's fault") {
    h.reports[BackendId::Docker].capabilities[Capability::SyscallFiltering] = {Support::Partial, "no seccomp"};
    auto r = negotiate(l2({BackendId::Docker}), h.probeFor());
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::SandboxCapabilityInsufficient);
  }
  SUBCASE("docker gives it: the L1 backends listed first are passed over, never used instead") {
    auto r = negotiate(l2({BackendId::LinuxBwrap, BackendId::Docker}), h.probeFor());
    REQUIRE(r.ok());
    CHECK(r->backend == BackendId::Docker);
  }
}

TEST_CASE("negotiate: L3 is linux-gvisor where its probe saw another kernel, and nothing below it is probed") {
  Host h;
  for (BackendId id : kAllBackends) h.reports[id] = report(id);
  h.reports[BackendId::LinuxGvisor].kernelSeparation = "the step saw kernel 4.4.0";
  NegotiationRequest req = request({BackendId::LinuxBwrap, BackendId::Docker, BackendId::LinuxGvisor});
  req.explicitImage = true;
  req.policy.minIsolation = Isolation::L3;
  auto r = negotiate(req, h.probeFor());
  REQUIRE(r.ok());
  CHECK(r->backend == BackendId::LinuxGvisor);
  CHECK(r->isolation == Isolation::L3);
  CHECK(h.probed == std::vector<BackendId>{BackendId::LinuxGvisor});
  REQUIRE(r->refused.size() == 2);
  CHECK(r->refused[0].reason == "provides isolation L1, the policy requires at least L3");
}

TEST_CASE("negotiate: linux-gvisor whose probe did not see another kernel is not L3") {
  Host h;
  h.reports[BackendId::LinuxGvisor] = report(BackendId::LinuxGvisor);  // available, no kernelSeparation
  NegotiationRequest req = request({BackendId::LinuxGvisor});
  req.policy.minIsolation = Isolation::L3;
  auto r = negotiate(req, h.probeFor());
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::IsolationUnavailable);
  CHECK(r.error().message ==
        "the step asks for isolation L3 (remote: another kernel per step); no backend here gives L3: linux-gvisor: its "
        "probe did not see a step run on another kernel here, so it gives L1, the policy requires at least L3");
  // At L1 the same backend still runs.
  req.policy.minIsolation = Isolation::L1;
  CHECK(negotiate(req, h.probeFor()).ok());
}

TEST_CASE("negotiate: L3 without runsc is ISOLATION_UNAVAILABLE naming why, never a lower level") {
  Host h;
  for (BackendId id : kAllBackends) h.reports[id] = report(id);
  h.reports[BackendId::LinuxGvisor] = report(BackendId::LinuxGvisor, false);
  h.reports[BackendId::LinuxGvisor].unavailableReason = "gVisor (runsc) is not installed";
  NegotiationRequest req = request({BackendId::DirectDedicated, BackendId::Docker, BackendId::LinuxGvisor});
  req.policy.allowDedicatedDirectOverride = true;
  req.explicitImage = true;
  req.policy.minIsolation = Isolation::L3;
  auto r = negotiate(req, h.probeFor());
  REQUIRE(!r.ok());
  CHECK(h.probed == std::vector<BackendId>{BackendId::LinuxGvisor});
  CHECK(r.error().code == ErrorCode::IsolationUnavailable);
  CHECK(r.error().message ==
        "the step asks for isolation L3 (remote: another kernel per step); no backend here gives L3: linux-gvisor: "
        "unavailable: gVisor (runsc) is not installed");
  CHECK(r.error().hint.find("L3 needs gVisor (the runsc package)") == 0);
  REQUIRE(r.error().diagnostics.size() == 3);
  CHECK(r.error().diagnostics[0].message == "direct-dedicated: provides isolation L1, the policy requires at least L3");
  CHECK(r.error().diagnostics[1].message == "docker: provides isolation L2, the policy requires at least L3");

  // Not listed at all: the message says which backend would give it.
  req.policy.preferredBackends = {BackendId::Docker};
  auto unlisted = negotiate(req, h.probeFor());
  REQUIRE(!unlisted.ok());
  CHECK(unlisted.error().message.ends_with(
      "preferredBackends lists no backend that gives it (linux-gvisor, k8s-pod would)"));
}

TEST_CASE("negotiate: an empty list fails closed") {
  Host h;
  auto r = negotiate(NegotiationRequest{}, h.probeFor());
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::SandboxBackendUnavailable);
}
