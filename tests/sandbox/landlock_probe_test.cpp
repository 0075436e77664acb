#include <doctest/doctest.h>

#include "sandbox/landlock/landlock_backend.h"
#include "sandbox/landlock/landlock_probe.h"

using namespace lw::sandbox;
using namespace lw::sandbox::landlock;
using lw::Capability;
using lw::NetworkMode;

namespace {
Observation full(int abi) {
  Observation o;
  o.abi = abi;
  o.landlockRestricts = o.namespaces = o.pidNamespaceInit = o.privateView = o.seccompFilters = o.subreaper = true;
  return o;
}
}  // namespace

TEST_CASE("landlock probe: ABI 7 with namespaces") {
  ProbeReport r = classify(full(7));
  CHECK(r.available);
  CHECK(r.backend == lw::BackendId::LinuxLandlock);
  CHECK(r.version == "landlock ABI 7");
  CHECK(r.capabilities[Capability::FilesystemReadContainment].support == Support::Enforced);
  CHECK(r.capabilities[Capability::FilesystemWriteContainment].support == Support::Enforced);
  CHECK(r.capabilities[Capability::ProtectedPathReadOnlyMask].support == Support::Partial);
  CHECK(r.capabilities[Capability::SyscallFiltering].support == Support::Enforced);
  CHECK(r.capabilities[Capability::ProcessTreeCleanup].support == Support::Enforced);
  CHECK(r.networkModes[NetworkMode::None].support == Support::Enforced);
  CHECK(r.networkModes[NetworkMode::LoopbackOnly].support == Support::Enforced);
  CHECK(r.networkModes[NetworkMode::AllowOutbound].support == Support::Partial);
  CHECK(r.networkModes[NetworkMode::AllowList].support == Support::Enforced);
  CHECK(r.capabilities.size() == lw::kAllCapabilities.size());
  CHECK(r.networkModes.size() == lw::kAllNetworkModes.size());
}

TEST_CASE("landlock probe: without user namespaces loopback-only is partial") {
  Observation o = full(7);
  o.namespaces = false;
  ProbeReport r = classify(o);
  CHECK(r.available);
  CHECK(r.networkModes[NetworkMode::LoopbackOnly].support == Support::Partial);
  CHECK(r.networkModes[NetworkMode::AllowList].support == Support::Partial);
  CHECK(r.networkModes[NetworkMode::None].support == Support::Enforced);
}

TEST_CASE("landlock probe: unavailable, with the reason, everything absent") {
  struct Case {
    const char* name;
    Observation o;
    const char* fragment;
  };
  Observation noLandlock = full(0);
  noLandlock.landlockRestricts = false;
  Observation noSeccomp = full(7);
  noSeccomp.seccompFilters = false;
  Observation abi5NoNs = full(5);
  abi5NoNs.namespaces = false;
  Observation failed = full(7);
  failed.failure = "fork: out of memory";
  Observation noReaper = full(7);
  noReaper.subreaper = false;
  const Case cases[] = {
      {"no landlock", noLandlock, "not enabled"}, {"ABI 2", full(2), "truncate"},
      {"no seccomp", noSeccomp, "seccomp"},       {"ABI 5 without namespaces", abi5NoNs, "scope signals"},
      {"probe failed", failed, "out of memory"},  {"no subreaper", noReaper, "subreaper"}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    ProbeReport r = classify(c.o);
    CHECK_FALSE(r.available);
    CHECK(r.unavailableReason.find(c.fragment) != std::string::npos);
    for (auto& [cap, st] : r.capabilities) CHECK(st.support == Support::Absent);
    for (auto& [mode, st] : r.networkModes) CHECK(st.support == Support::Absent);
  }
  CHECK(classify(full(5)).available);  // ABI 5 with a pid namespace is fine
}

TEST_CASE("landlock probe: launch facts recovered from a (cached) report match the observation") {
  for (bool ns : {false, true}) {
    for (int abi : {3, 5, 6, 7}) {
      CAPTURE(ns);
      CAPTURE(abi);
      for (bool view : {false, true}) {
        CAPTURE(view);
        Observation o = full(abi);
        o.namespaces = o.pidNamespaceInit = ns;
        o.privateView = view;
        ProbeReport r = classify(o);
        if (!r.available) continue;  // ABI < 6 without namespaces
        ConfinementFacts f = confinementFactsFrom(r, abi, true, false);
        CHECK(f.abi == abi);
        CHECK(f.namespaces == ns);
        CHECK(f.privateView == (ns && view));
        CHECK(f.holdsSetpcap);
        CHECK_FALSE(f.holdsSysAdmin);
      }
    }
  }
}

TEST_CASE("landlock probe: without the private view, host processes are in reach and metadata goes to seccomp") {
  Observation o = full(7);
  o.privateView = false;
  ProbeReport r = classify(o);
  CHECK(r.available);
  CHECK(r.capabilities[Capability::ProcessTreeCleanup].support == Support::Partial);
  CHECK(r.capabilities[Capability::ProcessTreeCleanup].reason.find("/proc") != std::string::npos);
  CHECK(r.capabilities[Capability::FilesystemWriteContainment].support == Support::Enforced);
  CHECK(r.capabilities[Capability::FilesystemWriteContainment].reason.find("seccomp refuses every chmod") !=
        std::string::npos);
  ProbeReport withView = classify(full(7));
  CHECK(withView.capabilities[Capability::FilesystemWriteContainment].reason.find("mounted read-only") !=
        std::string::npos);
}
