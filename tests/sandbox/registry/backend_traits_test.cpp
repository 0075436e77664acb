#include <doctest/doctest.h>

#include <map>

#include "sandbox/registry/backend_registry.h"

using namespace lw;
using namespace lw::sandbox;

namespace {

using Bridge = BackendTraits::BridgeTransport;

// Every backend of this build by id (constructing one probes nothing).
std::map<BackendId, BackendTraits> traitsOfEveryBackend() {
  std::map<BackendId, BackendTraits> all;
  for (auto& backend : makeBackends(Environment{})) all[backend->id()] = backend->traits();
  return all;
}

}  // namespace

TEST_CASE("backend traits: the registry has one backend per BackendId") {
  auto all = traitsOfEveryBackend();
  CHECK(all.size() == std::size(kAllBackends));
  for (BackendId id : kAllBackends) CHECK_MESSAGE(all.contains(id), toString(id));
}

// One row per backend: what it asks the pipeline (and qualify) to prepare.
struct Expected {
  BackendId id;
  Bridge bridge;
  bool hostFilesVisible, needsImage, usesUserNamespaces, canariesThroughShell, runsUnconfined;
};

TEST_CASE("backend traits: what each backend asks the pipeline to prepare") {
  const Expected rows[] = {
      {BackendId::LinuxBwrap, Bridge::Descriptor, true, false, true, false, false},
      {BackendId::LinuxLandlock, Bridge::Descriptor, true, false, false, false, false},
      {BackendId::Docker, Bridge::SocketPath, false, true, false, true, false},
      {BackendId::DirectDedicated, Bridge::Descriptor, true, false, false, false, true},
      {BackendId::MacosSeatbelt, Bridge::Descriptor, true, false, false, false, false},
  };
  auto all = traitsOfEveryBackend();
  for (const Expected& e : rows) {
    CAPTURE(toString(e.id));
    const BackendTraits& t = all.at(e.id);
    CHECK(t.bridge == e.bridge);
    CHECK(t.hostFilesVisible == e.hostFilesVisible);
    CHECK(t.needsImage == e.needsImage);
    CHECK(t.usesUserNamespaces == e.usesUserNamespaces);
    CHECK(t.canariesThroughShell == e.canariesThroughShell);
    CHECK(t.runsUnconfined == e.runsUnconfined);
  }
}

TEST_CASE("backend traits: an unavailable backend reports the defaults and refuses to launch") {
  auto b = makeUnavailableBackend(BackendId::MacosSeatbelt, "not on this platform");
  const BackendTraits t = b->traits();
  CHECK(t.bridge == Bridge::Descriptor);
  CHECK(t.hostFilesVisible);
  CHECK_FALSE(t.needsImage);
  CHECK_FALSE(t.runsUnconfined);
  CHECK(b->hostDependencies().empty());
  CHECK(b->hostNotes().empty());
  auto launched = b->launch(StepSpec{});
  REQUIRE_FALSE(launched.ok());
  CHECK(launched.error().code == ErrorCode::SandboxBackendUnavailable);
}
