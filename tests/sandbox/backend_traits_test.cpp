#include <doctest/doctest.h>

#include <map>

#include "sandbox/registry.h"

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

TEST_CASE("backend traits: what each backend asks the pipeline to prepare") {
  auto all = traitsOfEveryBackend();
  SUBCASE("linux-bwrap: a descriptor bridge, host files visible, user namespaces") {
    const BackendTraits& t = all.at(BackendId::LinuxBwrap);
    CHECK(t.bridge == Bridge::Descriptor);
    CHECK(t.hostFilesVisible);
    CHECK_FALSE(t.needsImage);
    CHECK(t.usesUserNamespaces);
    CHECK_FALSE(t.canariesThroughShell);
    CHECK_FALSE(t.runsUnconfined);
  }
  SUBCASE("linux-landlock: a descriptor bridge, host files visible, no user namespace needed") {
    const BackendTraits& t = all.at(BackendId::LinuxLandlock);
    CHECK(t.bridge == Bridge::Descriptor);
    CHECK(t.hostFilesVisible);
    CHECK_FALSE(t.needsImage);
    CHECK_FALSE(t.usesUserNamespaces);
    CHECK_FALSE(t.canariesThroughShell);
    CHECK_FALSE(t.runsUnconfined);
  }
  SUBCASE("docker: a socket-path bridge, only mounted files, a pinned image, shell canaries") {
    const BackendTraits& t = all.at(BackendId::Docker);
    CHECK(t.bridge == Bridge::SocketPath);
    CHECK_FALSE(t.hostFilesVisible);
    CHECK(t.needsImage);
    CHECK_FALSE(t.usesUserNamespaces);
    CHECK(t.canariesThroughShell);
    CHECK_FALSE(t.runsUnconfined);
  }
  SUBCASE("direct-dedicated: runs unconfined, otherwise like a plain child") {
    const BackendTraits& t = all.at(BackendId::DirectDedicated);
    CHECK(t.bridge == Bridge::Descriptor);
    CHECK(t.hostFilesVisible);
    CHECK_FALSE(t.needsImage);
    CHECK_FALSE(t.usesUserNamespaces);
    CHECK_FALSE(t.canariesThroughShell);
    CHECK(t.runsUnconfined);
  }
  SUBCASE("macos-seatbelt: a descriptor bridge, host files visible, confined") {
    const BackendTraits& t = all.at(BackendId::MacosSeatbelt);
    CHECK(t.bridge == Bridge::Descriptor);
    CHECK(t.hostFilesVisible);
    CHECK_FALSE(t.needsImage);
    CHECK_FALSE(t.runsUnconfined);
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
