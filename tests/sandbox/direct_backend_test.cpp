#include <doctest/doctest.h>

#include "sandbox/direct/direct_backend.h"

using namespace lw::sandbox;
using lw::Capability;
using lw::NetworkMode;

TEST_CASE("direct-dedicated probe: only tree cleanup is enforced, everything else says why") {
  ProbeReport r = direct::classify(true);
  CHECK(r.available);
  CHECK(r.backend == lw::BackendId::DirectDedicated);
  for (Capability c : lw::kAllCapabilities) {
    CAPTURE(c);
    if (c == Capability::ProcessTreeCleanup) {
      CHECK(r.capabilities[c].support == Support::Enforced);
    } else {
      CHECK(r.capabilities[c].support == Support::Absent);
      CHECK(r.capabilities[c].reason ==
            "direct-dedicated has no containment; it relies on a dedicated, ephemeral machine");
    }
  }
  CHECK(r.networkModes[NetworkMode::None].support == Support::Absent);
  CHECK(r.networkModes[NetworkMode::LoopbackOnly].support == Support::Absent);
  CHECK(r.networkModes[NetworkMode::AllowOutbound].support == Support::Enforced);
}

TEST_CASE("direct-dedicated probe: without a subreaper it is unavailable") {
  ProbeReport r = direct::classify(false);
  CHECK_FALSE(r.available);
  CHECK(r.capabilities[Capability::ProcessTreeCleanup].support == Support::Absent);
  CHECK(r.networkModes[NetworkMode::AllowOutbound].support == Support::Absent);
}
