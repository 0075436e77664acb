#include <doctest/doctest.h>

#include "sandbox/bwrap/bwrap_probe.h"

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

std::string status(const ProbeReport& r, Capability c) {
  return std::string(toString(r.capabilities.at(c).support));
}
std::string status(const ProbeReport& r, NetworkMode m) {
  return std::string(toString(r.networkModes.at(m).support));
}

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
  CHECK(r.unavailableReason ==
        "bwrap could not start a sandbox with the production flags: bwrap: setting up uid map: "
        "Permission denied");
}
