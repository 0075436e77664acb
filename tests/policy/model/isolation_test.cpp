#include <doctest/doctest.h>

#include "policy/model/isolation.h"

using namespace lw;

TEST_CASE("isolation levels: direct-dedicated is L1, docker L2, linux-gvisor at most L3") {
  // direct-dedicated runs beside the orchestrator that holds the token: it
  // is never more than L1, whatever else its machine is.
  CHECK(isolationOf(BackendId::DirectDedicated) == Isolation::L1);
  CHECK(isolationOf(BackendId::MacosSeatbelt) == Isolation::L1);
  CHECK(isolationOf(BackendId::LinuxBwrap) == Isolation::L1);
  CHECK(isolationOf(BackendId::LinuxLandlock) == Isolation::L1);
  CHECK(isolationOf(BackendId::Docker) == Isolation::L2);
  // At most: its probe must see the other kernel (sandbox::observedIsolation).
  CHECK(isolationOf(BackendId::LinuxGvisor) == Isolation::L3);
}

TEST_CASE("isolation levels: what each means, and what this version lacks to give it") {
  CHECK(isolationMeaning(Isolation::L1) ==
        "local: an OS sandbox on the orchestrator's machine, or only the job's own VM");
  CHECK(isolationMeaning(Isolation::L2) == "container: its own root filesystem, from an image the host admin pinned");
  CHECK(isolationMeaning(Isolation::L3) == "remote: another kernel per step");
  CHECK(isolationMissing(Isolation::L1).empty());
  CHECK(isolationMissing(Isolation::L2).empty());
  CHECK(isolationMissing(Isolation::L3).empty());
  CHECK(describeLevel(Isolation::L3) == "L3 (remote: another kernel per step)");
}
