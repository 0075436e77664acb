#include <doctest/doctest.h>

#include "sandbox/docker/docker_backend.h"
#include "sandbox/docker/engine_probe.h"
#include "sandbox/docker_fake_engine.h"

using namespace lw::sandbox;
using namespace lw::sandbox::docker;
using lw::test::FakeEngine;

namespace {

EngineFacts reachable(std::vector<std::string> securityOptions) {
  EngineFacts f;
  f.socketPath = "/run/docker.sock";
  f.reachable = true;
  f.version = "28.2.2";
  f.apiVersion = "1.50";
  f.securityOptions = std::move(securityOptions);
  return f;
}

}  // namespace

TEST_CASE("docker engine: its identity names the socket and the version, or that it is unreachable") {
  CHECK(engineIdentity(reachable({})) == "/run/docker.sock 28.2.2 api 1.50");
  EngineFacts down;
  down.socketPath = "/run/docker.sock";
  CHECK(engineIdentity(down) == "/run/docker.sock unreachable");
}

TEST_CASE("docker engine: the note says who the socket makes root-equivalent") {
  SUBCASE("rootful") {
    auto notes = engineNotes(reachable({"name=seccomp,profile=default"}));
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] ==
          "rootful engine: whoever can use /run/docker.sock is root-equivalent on this host (it can start a "
          "privileged container); keep the socket out of every step's view");
  }
  SUBCASE("rootless") {
    auto notes = engineNotes(reachable({"name=seccomp,profile=default", "name=rootless"}));
    REQUIRE(notes.size() == 1);
    CHECK(notes[0] == "rootless engine: access to /run/docker.sock gives the engine's user's privileges, not root's");
  }
  SUBCASE("unreachable: nothing to weigh") {
    EngineFacts down;
    CHECK(engineNotes(down).empty());
  }
}

TEST_CASE("docker backend: host dependencies and notes come from one observation of the engine") {
  auto engine = std::make_shared<FakeEngine>();
  engine->on("GET /_ping", 200, "OK");
  engine->on("GET /version", 200, R"({"Version":"28.2.2","ApiVersion":"1.50"})");
  engine->on("GET /info", 200, R"({"SecurityOptions":["name=seccomp,profile=default"]})");
  engine->on("GET /networks/bridge", 404, R"({"message":"no bridge"})");
  DockerConfig config;
  config.socketPath = "/run/fake-docker.sock";
  config.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  DockerBackend backend(config, engine);
  CHECK(backend.hostDependencies() == "docker /run/fake-docker.sock 28.2.2 api 1.50");
  auto notes = backend.hostNotes();
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].starts_with("rootful engine: whoever can use /run/fake-docker.sock"));
  // The engine went away: the backend answers from what it observed.
  engine->unreachable();
  CHECK(backend.probe().available);
  CHECK(backend.hostDependencies() == "docker /run/fake-docker.sock 28.2.2 api 1.50");
}

TEST_CASE("docker backend: an unreachable engine is named in the host dependencies, with no notes") {
  auto engine = std::make_shared<FakeEngine>();
  engine->unreachable();
  DockerConfig config;
  config.socketPath = "/run/none.sock";
  DockerBackend backend(config, engine);
  CHECK(backend.hostDependencies() == "docker /run/none.sock unreachable");
  CHECK(backend.hostNotes().empty());
  CHECK_FALSE(backend.probe().available);
}
