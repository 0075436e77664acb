#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "support/temp_dir.h"

#include "sandbox/bwrap/bwrap_probe.h"
#include "sandbox/negotiate.h"

using namespace lw;
using namespace lw::sandbox;
using namespace lw::sandbox::bwrap;

namespace {

ProbeObservation allHeld() {
  ProbeObservation o;
  o.bwrapFound = true;
  o.ran = true;
  o.seccompCompiled = true;
  o.version = "bubblewrap 0.8.0";
  o.tokens = {"W1", "W2", "P1", "P2", "R1", "R2", "N1", "N2", "T1", "S1", "C1", "C2"};
  return o;
}

std::string status(const ProbeReport& r, Capability c) { return std::string(toString(r.capabilities.at(c).support)); }
std::string status(const ProbeReport& r, NetworkMode m) { return std::string(toString(r.networkModes.at(m).support)); }

}  // namespace

TEST_CASE("bwrap probe: every token seen means every capability enforced, allow-outbound partial") {
  ProbeReport r = interpretProbe(allHeld());
  CHECK(r.available);
  for (Capability c : kAllCapabilities) CHECK(status(r, c) == "enforced");
  CHECK(status(r, NetworkMode::None) == "enforced");
  CHECK(status(r, NetworkMode::LoopbackOnly) == "enforced");
  CHECK(status(r, NetworkMode::AllowOutbound) == "partial");
}

TEST_CASE("bwrap probe: each missing observation removes exactly what it proves") {
  SUBCASE("no seccomp") {
    ProbeObservation o = allHeld();
    o.tokens.erase("S1");
    ProbeReport r = interpretProbe(o);
    CHECK(status(r, Capability::SyscallFiltering) == "absent");
    CHECK(status(r, NetworkMode::None) == "partial");
    CHECK(status(r, Capability::NetworkIsolation) == "enforced");
  }
  SUBCASE("loopback not up") {
    ProbeObservation o = allHeld();
    o.tokens.erase("N2");
    CHECK(status(interpretProbe(o), NetworkMode::LoopbackOnly) == "absent");
  }
  SUBCASE("protected file renamable") {
    ProbeObservation o = allHeld();
    o.tokens.erase("P2");
    CHECK(status(interpretProbe(o), Capability::ProtectedPathReadOnlyMask) == "absent");
  }
  SUBCASE("capabilities kept: nothing is enforced") {
    ProbeObservation o = allHeld();
    o.tokens.erase("C1");
    ProbeReport r = interpretProbe(o);
    CHECK(!r.available);
    for (Capability c : kAllCapabilities) CHECK(status(r, c) == "absent");
  }
}

TEST_CASE("bwrap probe: not installed, or refused by the kernel, is unavailable with the reason") {
  ProbeObservation o;
  CHECK(interpretProbe(o).unavailableReason == "bubblewrap (bwrap) is not installed");
  o.bwrapFound = true;
  o.failure = "bwrap: setting up uid map: Permission denied";
  ProbeReport r = interpretProbe(o);
  CHECK(!r.available);
  CHECK(r.unavailableReason.starts_with(
      "bwrap could not start a sandbox with the production flags: bwrap: setting up uid map: "
      "Permission denied: user namespaces are refused"));
  o.failure = "bwrap: execvp /bin/sh: No such file or directory";
  CHECK(interpretProbe(o).unavailableReason ==
        "bwrap could not start a sandbox with the production flags: bwrap: execvp /bin/sh: No such file or directory");
}

TEST_CASE("bwrap probe: on a host whose AppArmor restricts user namespaces the refusal says what to do") {
  // A restricted host presented through its own /proc root, as Ubuntu
  // 24.04 has it by default.
  lw::test::TempDir proc;
  proc.write("sys/kernel/apparmor_restrict_unprivileged_userns", "1\n");
  proc.write("sys/user/max_user_namespaces", "63000\n");
  ProbeObservation o;
  o.bwrapFound = true;
  o.sysctls = readUsernsSysctls(proc.root.string());
  REQUIRE(o.sysctls.apparmorRestrictUnprivilegedUserns == 1);
  CHECK_FALSE(o.sysctls.unprivilegedUsernsClone);
  for (const char* failure : {"bwrap: setting up uid map: Permission denied (exit status 1)",
                              "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted (exit status 1)"}) {
    CAPTURE(failure);
    o.failure = failure;
    ProbeReport r = interpretProbe(o);
    CHECK_FALSE(r.available);
    CHECK(r.unavailableReason ==
          "bwrap could not start a sandbox with the production flags: " + std::string(failure) +
              ": unprivileged user namespaces are restricted by AppArmor "
              "(kernel.apparmor_restrict_unprivileged_userns=1, the Ubuntu 23.10+/24.04 default); to fix: "
              "install the AppArmor profile for bwrap that loopwright ships as dist/apparmor/bwrap "
              "(sudo install -m 644 dist/apparmor/bwrap /etc/apparmor.d/bwrap && "
              "sudo apparmor_parser -r /etc/apparmor.d/bwrap), or set "
              "sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0, or list linux-landlock in "
              "preferredBackends (no user namespace needed); README: Ubuntu 23.10 / 24.04");
    CHECK(status(r, Capability::FilesystemReadContainment) == "absent");
  }
}

TEST_CASE("bwrap probe: the shipped AppArmor profile grants bwrap user namespaces and nothing else") {
  std::ifstream in(std::string(LOOPWRIGHT_SOURCE_DIR) + "/dist/apparmor/bwrap");
  REQUIRE(in);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("profile bwrap /usr/bin/bwrap flags=(unconfined) {") != std::string::npos);
  CHECK(text.find("  userns,\n") != std::string::npos);
  CHECK(text.find("abi <abi/4.0>,") != std::string::npos);
}

TEST_CASE("bwrap probe: negotiation on a restricted host says what to do, and linux-landlock listed after bwrap runs") {
  lw::test::TempDir proc;
  proc.write("sys/kernel/apparmor_restrict_unprivileged_userns", "1\n");
  ProbeObservation o;
  o.bwrapFound = true;
  o.failure = "bwrap: setting up uid map: Permission denied (exit status 1)";
  o.sysctls = readUsernsSysctls(proc.root.string());
  ProbeReport bwrap = interpretProbe(o);
  ProbeReport landlock;
  landlock.backend = BackendId::LinuxLandlock;
  landlock.available = true;
  for (Capability c : kAllCapabilities) landlock.capabilities[c] = {Support::Enforced, "Landlock"};
  for (NetworkMode m : kAllNetworkModes) landlock.networkModes[m] = {Support::Enforced, "Landlock"};
  ProbeFor probeFor = [&](BackendId id) -> const ProbeReport* {
    if (id == BackendId::LinuxBwrap) return &bwrap;
    if (id == BackendId::LinuxLandlock) return &landlock;
    return nullptr;
  };
  NegotiationRequest only;
  only.policy.preferredBackends = {BackendId::LinuxBwrap};
  only.policy.requiredCapabilities = {Capability::FilesystemWriteContainment};
  auto refused = negotiate(only, probeFor);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::SandboxBackendUnavailable);
  REQUIRE(refused.error().diagnostics.size() == 1);
  const std::string& why = refused.error().diagnostics[0].message;
  CHECK(why.starts_with("linux-bwrap: unavailable: bwrap could not start a sandbox"));
  CHECK(why.find("restricted by AppArmor") != std::string::npos);
  CHECK(why.find("dist/apparmor/bwrap") != std::string::npos);
  CHECK(why.find("sysctl kernel.apparmor_restrict_unprivileged_userns=0") != std::string::npos);
  CHECK(why.find("list linux-landlock in preferredBackends") != std::string::npos);

  NegotiationRequest both = only;
  both.policy.preferredBackends = {BackendId::LinuxBwrap, BackendId::LinuxLandlock};
  auto chosen = negotiate(both, probeFor);
  REQUIRE(chosen.ok());
  CHECK((chosen->backend == BackendId::LinuxLandlock));
}
