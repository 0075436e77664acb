#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "host/qualification.h"
#include "host/qualification_report.h"
#include "sandbox/registry/backend_registry.h"

using namespace lw;
using namespace lw::host;
using sandbox::Support;

namespace {

// The traits the backend of this build reports (constructing one probes nothing).
sandbox::BackendTraits traitsOf(BackendId id) {
  for (auto& backend : sandbox::makeBackends(Environment{}))
    if (backend->id() == id) return backend->traits();
  FAIL("no backend " << toString(id));
  return {};
}

BackendQualification claimedAll(BackendId id, Support s) {
  BackendQualification b;
  b.claimed.backend = id;
  b.traits = traitsOf(id);
  b.claimed.available = true;
  for (Capability c : kAllCapabilities) b.claimed.capabilities[c] = {s, "claimed"};
  for (NetworkMode m : kAllNetworkModes) b.claimed.networkModes[m] = {s, "claimed"};
  return b;
}

CanaryRecord rec(std::string target, bool ran, bool held, Support cost = Support::Absent) {
  CanaryRecord r;
  r.target = std::move(target);
  r.attempt = "try";
  r.ran = ran;
  r.held = held;
  r.failureCost = cost;
  r.evidence = held ? "blocked: x" : "ESCAPED: x";
  return r;
}

PlatformFacts linuxX64() { return classifyPlatform("Linux", "x86_64"); }

}  // namespace

TEST_CASE("qualification: enforced only when the claim holds and the canary was observed blocked") {
  BackendQualification b = claimedAll(BackendId::LinuxBwrap, Support::Enforced);
  b.canaries = {rec("filesystemReadContainment", true, true), rec("filesystemWriteContainment", true, false),
                rec("syscallFiltering", false, false), rec("network none", true, true),
                rec("network allow-outbound", true, false, Support::Partial)};
  observeFromCanaries(b);
  settle(b);
  CHECK(b.result[Capability::FilesystemReadContainment].support == Support::Enforced);
  CHECK(b.result[Capability::FilesystemWriteContainment].support == Support::Absent);
  CHECK(b.result[Capability::FilesystemWriteContainment].reason == "observed: try: ESCAPED: x");
  CHECK(b.result[Capability::SyscallFiltering].support == Support::Absent);
  CHECK(b.result[Capability::SyscallFiltering].reason == "observed: canary could not run: try: ESCAPED: x");
  CHECK(b.result[Capability::ProcessTreeCleanup].support == Support::Absent);  // no canary: not observed
  CHECK(b.result[Capability::NetworkIsolation].support == Support::Enforced);  // from "network none"
  CHECK(b.resultNetwork[NetworkMode::None].support == Support::Enforced);
  CHECK(b.resultNetwork[NetworkMode::AllowOutbound].support == Support::Partial);
}

TEST_CASE("qualification: a weaker claim wins over a blocked canary, unavailable is absent everywhere") {
  BackendQualification b = claimedAll(BackendId::LinuxLandlock, Support::Partial);
  b.canaries = {rec("protectedPathReadOnlyMask", true, true)};
  observeFromCanaries(b);
  settle(b);
  CHECK(b.result[Capability::ProtectedPathReadOnlyMask].support == Support::Partial);
  CHECK(b.result[Capability::ProtectedPathReadOnlyMask].reason == "claimed: claimed");

  BackendQualification off = claimedAll(BackendId::LinuxBwrap, Support::Enforced);
  off.claimed.available = false;
  off.claimed.unavailableReason = "bubblewrap (bwrap) is not installed";
  settle(off);
  CHECK(off.result[Capability::FilesystemReadContainment].support == Support::Absent);
  CHECK(off.result[Capability::FilesystemReadContainment].reason == "bubblewrap (bwrap) is not installed");
}

TEST_CASE("qualification: the floor is met by a backend enforcing every floor capability") {
  BackendQualification bwrap = claimedAll(BackendId::LinuxBwrap, Support::Enforced);
  for (Capability c : kAllCapabilities) bwrap.canaries.push_back(rec(std::string(toString(c)), true, true));
  observeFromCanaries(bwrap);
  settle(bwrap);
  BackendQualification landlock = claimedAll(BackendId::LinuxLandlock, Support::Enforced);
  landlock.canaries = {rec("protectedPathReadOnlyMask", true, false)};
  observeFromCanaries(landlock);
  settle(landlock);

  HostConfig host;
  host.present = true;
  host.file = "/etc/loopwright/host.yaml";
  host.floor.requiredCapabilities = {Capability::ProtectedPathReadOnlyMask};
  FloorVerdict v = evaluateFloor(host, linuxX64(), {bwrap, landlock});
  CHECK(v.satisfied);
  CHECK(v.satisfiedBy == std::vector<BackendId>{BackendId::LinuxBwrap});

  v = evaluateFloor(host, linuxX64(), {landlock});
  CHECK_FALSE(v.satisfied);
  REQUIRE(v.missing.size() == 1);
  CHECK(v.missing[0].find("no backend meets the floor of /etc/loopwright/host.yaml: linux-landlock does not "
                          "enforce protectedPathReadOnlyMask (absent: observed: try: ESCAPED: x)") == 0);
}

TEST_CASE("qualification: direct-dedicated only where the floor allows it, isolation, platform") {
  BackendQualification direct = claimedAll(BackendId::DirectDedicated, Support::Enforced);
  observeFromCanaries(direct);
  settle(direct);
  HostConfig host;
  host.present = true;
  host.file = "h.yaml";
  host.floor.allowDirectDedicated = false;
  FloorVerdict v = evaluateFloor(host, linuxX64(), {direct});
  CHECK_FALSE(v.satisfied);
  CHECK(v.missing[0].find("direct-dedicated: forbidden by the floor (allowDirectDedicated: false)") !=
        std::string::npos);

  BackendQualification bwrap = claimedAll(BackendId::LinuxBwrap, Support::Enforced);
  settle(bwrap);
  host.floor.minIsolation = Isolation::L2;
  v = evaluateFloor(host, linuxX64(), {bwrap});
  CHECK(v.missing[0] ==
        "isolation L2 (container: its own root filesystem, from an image the host admin pinned): no "
        "backend here gives L2: no qualified backend would (linux-gvisor gives L3, docker L2)");
  CHECK(v.missing[1].find("linux-bwrap: isolation L1 is below the floor's L2") != std::string::npos);

  v = evaluateFloor(HostConfig{}, classifyPlatform("Linux", "riscv64"), {bwrap});
  CHECK_FALSE(v.satisfied);
  CHECK(v.missing[0] == "platform: linux/riscv64 is not supported (supported: darwin/arm64, linux/arm64, linux/x64)");
  CHECK(evaluateFloor(HostConfig{}, linuxX64(), {bwrap}).satisfied);
}

TEST_CASE("qualification: a floor asking for L3 is met by linux-gvisor that saw its kernel, by nothing else") {
  BackendQualification direct = claimedAll(BackendId::DirectDedicated, Support::Enforced);
  for (Capability c : kAllCapabilities) direct.canaries.push_back(rec(std::string(toString(c)), true, true));
  observeFromCanaries(direct);
  settle(direct);
  BackendQualification docker = claimedAll(BackendId::Docker, Support::Enforced);
  settle(docker);
  HostConfig host;
  host.present = true;
  host.file = "h.yaml";
  host.floor.allowDirectDedicated = true;
  host.floor.minIsolation = Isolation::L3;
  host.runtimeProfiles["busybox"] = RuntimeProfile{"busybox", "busybox@sha256:" + std::string(64, 'a'), {}};
  BackendQualification gvisor = claimedAll(BackendId::LinuxGvisor, Support::Enforced);
  for (Capability c : kAllCapabilities) gvisor.canaries.push_back(rec(std::string(toString(c)), true, true));
  observeFromCanaries(gvisor);
  settle(gvisor);
  FloorVerdict v = evaluateFloor(host, linuxX64(), {direct, docker, gvisor});
  CHECK_FALSE(v.satisfied);
  CHECK(v.satisfiedBy.empty());
  REQUIRE(v.missing.size() == 2);
  CHECK(v.missing[0] ==
        "isolation L3 (remote: another kernel per step): no backend here gives L3: linux-gvisor: its "
        "probe did not see a step run on another kernel here");
  REQUIRE(v.isolationUnavailable.has_value());
  CHECK(v.missing[1].find("direct-dedicated: isolation L1 is below the floor's L3") != std::string::npos);
  CHECK(v.missing[1].find("docker: isolation L2 is below the floor's L3") != std::string::npos);
  // Its probe did not see another kernel: L1.
  CHECK(v.missing[1].find("linux-gvisor: isolation L1 is below the floor's L3") != std::string::npos);

  gvisor.claimed.kernelSeparation = "the step saw kernel 4.4.0";
  FloorVerdict met = evaluateFloor(host, linuxX64(), {direct, docker, gvisor});
  CHECK(met.satisfied);
  CHECK(met.satisfiedBy == std::vector<BackendId>{BackendId::LinuxGvisor});
}

TEST_CASE("qualification report: JSON with schemaVersion, claimed and observed side by side, renderers") {
  Qualification q;
  q.loopwrightVersion = "0.1.0";
  q.hostConfigFile = "h.yaml";
  q.facts.platform = linuxX64();
  BackendQualification b = claimedAll(BackendId::LinuxBwrap, Support::Enforced);
  b.canaries = {rec("filesystemReadContainment", true, true)};
  observeFromCanaries(b);
  settle(b);
  q.backends = {b};
  HostConfig host;
  host.present = true;
  host.file = "h.yaml";
  host.floor.requiredCapabilities = {Capability::SyscallFiltering};
  q.verdict = evaluateFloor(host, q.facts.platform, q.backends);
  boost::json::object j = toJson(q);
  CHECK(j.at("schemaVersion").as_int64() == kQualificationSchemaVersion);
  const auto& row = j.at("backends").at(0).at("capabilities").at("filesystemReadContainment").as_object();
  CHECK(row.at("status").as_string() == "enforced");
  CHECK(row.at("claimed").at("status").as_string() == "enforced");
  CHECK(row.at("observed").at("status").as_string() == "enforced");
  CHECK_FALSE(floorSatisfied(j));

  std::string table = renderTable(j);
  CHECK(table.find("linux-bwrap: available") != std::string::npos);
  CHECK(table.find("floor of h.yaml: NOT satisfied") != std::string::npos);
  CHECK(table.find("missing: no backend meets the floor of h.yaml: linux-bwrap does not enforce syscallFiltering") !=
        std::string::npos);
  std::string md = renderMarkdown(j);
  CHECK(md.rfind("## loopwright host qualification: floor NOT met", 0) == 0);
  CHECK(md.find("| linux-bwrap | filesystemReadContainment | enforced | enforced | enforced |") != std::string::npos);

  Error e = floorError(j);
  CHECK(e.code == ErrorCode::SandboxCapabilityInsufficient);
  CHECK(e.message.find("this host does not meet the floor: no backend meets the floor") == 0);
}
