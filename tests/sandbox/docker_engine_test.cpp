#include <doctest/doctest.h>

#include <thread>

#include "sandbox/docker/container_process.h"
#include "sandbox/docker/docker_backend.h"
#include "sandbox/docker/engine_probe.h"
#include "sandbox/docker_fake_engine.h"

using namespace lw::sandbox;
using namespace lw::sandbox::docker;
using lw::Capability;
using lw::ErrorCode;
using lw::NetworkMode;
using lw::test::FakeEngine;
using lw::test::logFrame;
using namespace std::chrono_literals;

namespace {

const std::string kId = "edb92d95978c14b266eebc631de4b18c7493c72c5bbb6fcf4c9a52524998a7a1";
const std::string kImage = "sha256:0a709705be1a8ae76f7092d34a0b5fe8140d13b0dea666a492e7e5d708f06f5a";

void healthyEngine(FakeEngine& e, bool bridge = false) {
  e.on("GET /_ping", 200, "OK");
  e.on("GET /version", 200, R"({"Version":"20.10.24+dfsg1","ApiVersion":"1.41"})");
  e.on("GET /info", 200, R"({"SecurityOptions":["name=seccomp,profile=default","name=cgroupns"]})");
  e.on("GET /networks/bridge", bridge ? 200 : 404, bridge ? "{}" : R"({"message":"network bridge not found"})");
}

void containerLifecycle(FakeEngine& e) {
  e.on("POST /containers/create", 201, R"({"Id":")" + kId + R"(","Warnings":[]})");
  e.on("POST /containers/" + kId + "/start", 204);
  e.on("GET /containers/" + kId + "/json", 200, R"({"State":{"Pid":4321}})");
  e.on("POST /containers/" + kId + "/kill", 204);
  e.on("GET /containers/" + kId + "/logs", 200, logFrame(1, "out\n") + logFrame(2, "err\n"));
  e.on("DELETE /containers/" + kId, 204);
}

std::shared_ptr<EngineClient> clientOf(std::shared_ptr<FakeEngine> e) {
  return std::make_shared<EngineClient>(e, 1000ms);
}

}  // namespace

TEST_CASE("docker probe: what the engine shows decides what is enforced") {
  EngineFacts f;
  f.reachable = true;
  f.initInstalled = true;
  f.version = "20.10.24";
  f.apiVersion = "1.41";
  SUBCASE("rootful engine with the default seccomp profile and no bridge") {
    f.securityOptions = {"name=seccomp,profile=default"};
    const ProbeReport r = classifyEngine(f);
    CHECK(r.available);
    CHECK(r.version == "docker 20.10.24 (API 1.41, rootful: access to its socket is root-equivalent)");
    for (Capability c : lw::kAllCapabilities) CHECK(r.capabilities.at(c).support == Support::Enforced);
    CHECK(r.networkModes.at(NetworkMode::None).support == Support::Enforced);
    CHECK(r.networkModes.at(NetworkMode::LoopbackOnly).support == Support::Enforced);
    CHECK(r.networkModes.at(NetworkMode::AllowOutbound).support == Support::Absent);
    CHECK(r.networkModes.at(NetworkMode::AllowOutbound).reason ==
          "the engine has no bridge network (dockerd --bridge=none)");
  }
  SUBCASE("an unconfined engine profile still gets loopwright's filter; no seccomp at all, none") {
    f.securityOptions = {"name=seccomp,profile=unconfined"};
    CHECK(classifyEngine(f).capabilities.at(Capability::SyscallFiltering).support == Support::Enforced);
    f.securityOptions = {"name=apparmor"};
    CHECK(classifyEngine(f).capabilities.at(Capability::SyscallFiltering).support == Support::Absent);
  }
  SUBCASE("rootless engine, bridge present: outbound only partial") {
    f.securityOptions = {"name=seccomp,profile=builtin", "name=rootless"};
    f.hasBridgeNetwork = true;
    const ProbeReport r = classifyEngine(f);
    CHECK(r.version == "docker 20.10.24 (API 1.41, rootless)");
    CHECK(r.capabilities.at(Capability::SyscallFiltering).support == Support::Enforced);
    CHECK(r.networkModes.at(NetworkMode::AllowOutbound).support == Support::Partial);
  }
  SUBCASE("no container init beside loopwright: unavailable, saying where it was looked for") {
    f.securityOptions = {"name=seccomp,profile=default"};
    f.initInstalled = false;
    f.initBinary = "/opt/lw/loopwright-container-init";
    const ProbeReport r = classifyEngine(f);
    CHECK(!r.available);
    CHECK(r.unavailableReason ==
          "loopwright-container-init is not installed beside loopwright (/opt/lw/loopwright-container-init)");
    for (Capability c : lw::kAllCapabilities) CHECK(r.capabilities.at(c).support == Support::Absent);
  }
  SUBCASE("unreachable engine: unavailable, with the reason and the socket warning") {
    EngineFacts down;
    down.unreachableReason = "Docker engine at /var/run/docker.sock: Couldn't connect to server";
    const ProbeReport r = classifyEngine(down);
    CHECK(!r.available);
    CHECK(r.unavailableReason.find("Couldn't connect to server") != std::string::npos);
    CHECK(r.unavailableReason.find("root") != std::string::npos);
    for (Capability c : lw::kAllCapabilities) CHECK(r.capabilities.at(c).support == Support::Absent);
  }
}

TEST_CASE("docker probe: the engine is asked over its API and the answer cached") {
  auto engine = std::make_shared<FakeEngine>();
  healthyEngine(*engine, true);
  DockerConfig config;
  config.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  DockerBackend backend(config, engine);
  const ProbeReport& r = backend.probe();
  CHECK(r.available);
  CHECK(r.version.rfind("docker 20.10.24+dfsg1 (API 1.41", 0) == 0);
  CHECK(r.networkModes.at(NetworkMode::AllowOutbound).support == Support::Partial);
  (void)backend.probe();
  CHECK(engine->calls() == std::vector<std::string>{"GET /_ping", "GET /version", "GET /info", "GET /networks/bridge"});
  CHECK(engine->requests().front().timeout == config.probeTimeout);
}

TEST_CASE("docker probe: DOCKER_HOST that is not a unix socket makes the backend unavailable") {
  auto config = dockerConfigFromEnvironment(lw::Environment(
      std::map<std::string, std::string>{{"DOCKER_HOST", "tcp://127.0.0.1:2375"}, {"GITHUB_RUN_ID", "99"}}));
  CHECK(config.runLabel == "99-1");
  auto engine = std::make_shared<FakeEngine>();
  DockerBackend backend(config, engine);
  CHECK(!backend.probe().available);
  CHECK(engine->calls().empty());
  auto launched = backend.launch(StepSpec{});
  REQUIRE(!launched.ok());
  CHECK(launched.error().code == ErrorCode::SandboxBackendUnavailable);
}

TEST_CASE("docker client: engine errors carry the endpoint, the engine's message and a hint") {
  auto engine = std::make_shared<FakeEngine>();
  engine->on("POST /containers/create", 404, R"({"message":"No such image: sha256:0a70"})");
  EngineClient client(engine, 1000ms);
  auto r = client.create({});
  REQUIRE(!r.ok());
  CHECK(r.error().code == ErrorCode::SandboxLaunchFailed);
  CHECK(r.error().message == "Docker engine: POST /containers/create failed (HTTP 404): No such image: sha256:0a70");
  CHECK(r.error().hint.find("never pulls") != std::string::npos);

  engine->on("GET /_ping", 0, "", true);
  auto ping = client.ping();
  REQUIRE(!ping.ok());
  CHECK(ping.error().message == "Docker engine: GET /_ping took longer than 1000 ms");

  auto unreachable = std::make_shared<FakeEngine>();
  unreachable->unreachable();
  EngineClient down(unreachable, 1000ms);
  CHECK(down.ping().error().code == ErrorCode::IoError);
  CHECK(down.start("not-an-id").error().code == ErrorCode::Internal);
  CHECK(unreachable->calls().size() == 1);  // a bad ID never reaches the engine
}

TEST_CASE("docker process: a step that ends is waited for, its logs demultiplexed, the container removed") {
  auto engine = std::make_shared<FakeEngine>();
  containerLifecycle(*engine);
  engine->on("POST /containers/" + kId + "/wait", 200, R"({"StatusCode":3,"Error":null})");
  {
    ContainerProcess p(clientOf(engine), kId, 1 << 20, 1000ms);
    REQUIRE(p.start().ok());
    CHECK(p.pid() == 4321);
    const auto info = p.wait(std::nullopt);
    CHECK(info.exitCode == 3);
    CHECK(info.status() == 3);
    CHECK(!info.timedOut);
    CHECK(p.stdoutData().data == "out\n");
    CHECK(p.stderrData().data == "err\n");
    CHECK(p.engineErrors().empty());
    CHECK(p.wait(std::nullopt).exitCode == 3);  // cached, not asked again
  }
  CHECK(engine->count("POST /containers/" + kId + "/wait") == 1);
  CHECK(engine->count("DELETE /containers/" + kId) == 1);  // once, not again on destruction
  CHECK(engine->calls().back() == "DELETE /containers/" + kId + "?force=1&v=1");
  CHECK(engine->requests()[2].url.find("condition=not-running") != std::string::npos);
}

TEST_CASE("docker process: at the deadline the container is killed and reported timed out") {
  auto engine = std::make_shared<FakeEngine>();
  containerLifecycle(*engine);
  engine->on("POST /containers/" + kId + "/wait", 0, "", true);
  engine->on("POST /containers/" + kId + "/wait", 200, R"({"StatusCode":137})");
  ContainerProcess p(clientOf(engine), kId, 1 << 20, 1000ms);
  REQUIRE(p.start().ok());
  const auto info = p.wait(std::chrono::steady_clock::now() + 50ms);
  CHECK(info.timedOut);
  CHECK(info.status() == 124);
  const auto calls = engine->calls();
  const std::vector<std::string> tail(calls.end() - 5, calls.end());
  CHECK(tail == std::vector<std::string>{"POST /containers/" + kId + "/wait?condition=not-running",
                                         "POST /containers/" + kId + "/kill?signal=SIGKILL",
                                         "POST /containers/" + kId + "/wait?condition=not-running",
                                         "GET /containers/" + kId + "/logs?stdout=1&stderr=1",
                                         "DELETE /containers/" + kId + "?force=1&v=1"});
  const auto reqs = engine->requests();
  CHECK(reqs[reqs.size() - 5].timeout <= 50ms);
  CHECK(reqs[reqs.size() - 5].timeout > 0ms);
  CHECK(reqs[reqs.size() - 3].timeout == 1000ms);
}

TEST_CASE("docker process: a kill from another thread ends the wait as a signal") {
  auto engine = std::make_shared<FakeEngine>();
  containerLifecycle(*engine);
  engine->on("POST /containers/" + kId + "/wait", 200, R"({"StatusCode":137})");
  ContainerProcess p(clientOf(engine), kId, 1 << 20, 1000ms);
  p.kill();
  p.kill();  // idempotent
  const auto info = p.wait(std::nullopt);
  CHECK(info.signal == 9);
  CHECK(info.status() == 137);
}

TEST_CASE("docker process: destroyed without a wait (an exception unwinding) still removes the container") {
  auto engine = std::make_shared<FakeEngine>();
  containerLifecycle(*engine);
  engine->clear("DELETE /containers/" + kId);
  engine->on("DELETE /containers/" + kId, 500, R"({"message":"busy"})");
  engine->on("DELETE /containers/" + kId, 204);
  { ContainerProcess p(clientOf(engine), kId, 1 << 20, 1000ms); }
  CHECK(engine->count("DELETE /containers/" + kId) == 2);  // retried once after a failure
}

TEST_CASE("docker backend: launch needs a pinned image and removes the container when start fails") {
  auto engine = std::make_shared<FakeEngine>();
  healthyEngine(*engine);
  containerLifecycle(*engine);
  engine->clear("POST /containers/" + kId + "/start");
  engine->on("POST /containers/" + kId + "/start", 500, R"({"message":"OCI runtime create failed"})");
  DockerConfig config;
  config.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  config.user = "1000:1000";
  config.reapOrphans = false;  // the fake engine has no socket to reap through
  DockerBackend backend(config, engine);

  StepSpec spec;
  spec.argv = {"/bin/true"};
  spec.workspace = LOOPWRIGHT_SOURCE_DIR;
  spec.outDir = LOOPWRIGHT_SOURCE_DIR "/tests";
  auto noImage = backend.launch(spec);
  REQUIRE(!noImage.ok());
  CHECK(noImage.error().message == "docker: no container image for this step");

  spec.image = "busybox:latest";
  CHECK(backend.launch(spec).error().message.find("not pinned by digest") != std::string::npos);

  spec.image = kImage;
  auto failed = backend.launch(spec);
  REQUIRE(!failed.ok());
  CHECK(failed.error().message ==
        "Docker engine: POST /containers/{id}/start failed (HTTP 500): OCI runtime create failed");
  CHECK(engine->count("POST /containers/create") == 1);
  CHECK(engine->calls().back() == "DELETE /containers/" + kId + "?force=1&v=1");
  const auto create = engine->requests()[engine->requests().size() - 3];
  CHECK(create.body.find(R"("User":"1000:1000")") != std::string::npos);
  CHECK(create.body.find(R"("dev.loopwright.step":"step-)") != std::string::npos);
}

TEST_CASE("docker leftovers: containers of a run are found by label and removed") {
  auto engine = std::make_shared<FakeEngine>();
  engine->on("GET /containers/json", 200, R"([{"Id":")" + kId + R"("},{"Id":"abc123"}])");
  engine->on("DELETE /containers/", 204);
  EngineClient client(engine, 1000ms);
  auto removed = removeLabelledContainers(client, std::string(kRunLabel), "4242-1");
  REQUIRE(removed.ok());
  CHECK(*removed == 2);
  CHECK(engine->calls().front() ==
        "GET /containers/json?all=1&filters=%7B%22label%22%3A%5B%22dev.loopwright.run%3D4242-1%22%5D%7D");
}
