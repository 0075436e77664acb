// `loopwright qualify` on this machine, for real: live canaries in every
// backend, the floor verdict and its exit status, the cache and what
// invalidates it. [integration]
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <iostream>

#include "core/environment.h"
#include "host/host_facts.h"
#include "integration/host/host_cli.h"
#include "sandbox/bwrap/bwrap_backend.h"
#include "sandbox/registry/backend_registry.h"
#include "support/host_requirement.h"

using namespace lw;
using namespace lw::hosttest;

namespace {

bool backendRuns(BackendId id) {
  for (auto& b : sandbox::makeBackends(Environment::fromProcess()))
    if (b->id() == id) return b->probe().available;
  return false;
}

const boost::json::object* backend(const boost::json::object& report, const std::string& name) {
  for (const auto& b : report.at("backends").as_array())
    if (b.as_object().at("backend").as_string() == name) return &b.as_object();
  return nullptr;
}

std::string statusOf(const boost::json::object& b, const char* cap) {
  return std::string(b.at("capabilities").at(cap).at("status").as_string());
}

}  // namespace

TEST_CASE(
    "qualify: bwrap and landlock with every capability the escape suite observes, seatbelt unsupported here "
    "[integration]") {
  LW_REQUIRE_HOST(backendRuns(BackendId::LinuxBwrap), "bubblewrap cannot run here");
  LW_REQUIRE_HOST(backendRuns(BackendId::LinuxLandlock), "Landlock is not available here");
  Scratch s;
  Run r = run({"qualify", "--json", "--fresh"},
              {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("").string()}, {"GITHUB_STEP_SUMMARY", ""}}, s.root);
  INFO(r.describe());
  REQUIRE(r.status == 0);
  auto j = r.json();
  CHECK(j.at("schemaVersion").as_int64() == 1);
  CHECK(j.at("host").at("os").as_string() == "linux");
  CHECK(j.at("host").at("supported").as_bool());

  const auto* bwrap = backend(j, "linux-bwrap");
  REQUIRE(bwrap != nullptr);
  for (const char* cap : {"filesystemReadContainment", "filesystemWriteContainment", "protectedPathReadOnlyMask",
                          "networkIsolation", "processTreeCleanup", "syscallFiltering"}) {
    CAPTURE(cap);
    CHECK(statusOf(*bwrap, cap) == "enforced");
    CHECK(bwrap->at("capabilities").at(cap).at("observed").at("status").as_string() == "enforced");
  }
  // The escape suite attacks landlock's read/write containment, network and
  // process cleanup and its seccomp filter; protected paths inside a
  // writable tree are what Landlock cannot hold (docs/security-model.md).
  const auto* landlock = backend(j, "linux-landlock");
  REQUIRE(landlock != nullptr);
  for (const char* cap : {"filesystemReadContainment", "filesystemWriteContainment", "networkIsolation",
                          "processTreeCleanup", "syscallFiltering"}) {
    CAPTURE(cap);
    CHECK(statusOf(*landlock, cap) == "enforced");
  }
  CHECK(statusOf(*landlock, "protectedPathReadOnlyMask") != "enforced");
  CHECK(bwrap->at("networkModes").at("allow-outbound").at("status").as_string() == "partial");

  const auto* seatbelt = backend(j, "macos-seatbelt");
  REQUIRE(seatbelt != nullptr);
  CHECK_FALSE(seatbelt->at("available").as_bool());
  CHECK(seatbelt->at("unavailableReason").as_string().find("macOS") != std::string::npos);
  // Every canary on bwrap ran, and held but for the host loopback in
  // allow-outbound (--share-net: claimed partial, observed partial).
  for (const auto& c : bwrap->at("canaries").as_array()) {
    INFO(boost::json::serialize(c));
    if (c.at("target").as_string() == "network allow-outbound") continue;
    CHECK(c.at("ran").as_bool());
    CHECK(c.at("held").as_bool());
  }
}

TEST_CASE("qualify: docker available with the local engine, unavailable with the reason without it [integration]") {
  Environment env = Environment::fromProcess();
  auto image = env.get("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  LW_REQUIRE_HOST(env.get("DOCKER_HOST") && image,
                  "DOCKER_HOST and LOOPWRIGHT_TEST_DOCKER_IMAGE are unset: eval \"$(scripts/docker-test-env.sh env)\"");
  Scratch s;
  Run up = run({"qualify", "--json", "--fresh", "--backend", "docker", "--image", *image},
               {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("").string()}, {"GITHUB_STEP_SUMMARY", ""}}, s.root);
  INFO(up.describe());
  auto j = up.json();
  const auto* docker = backend(j, "docker");
  REQUIRE(docker != nullptr);
  REQUIRE(docker->at("available").as_bool());
  for (const char* cap : {"filesystemReadContainment", "filesystemWriteContainment", "protectedPathReadOnlyMask",
                          "networkIsolation", "processTreeCleanup", "syscallFiltering"}) {
    CAPTURE(cap);
    CHECK(statusOf(*docker, cap) == "enforced");
  }
  bool rootEquivalentNoted = false;
  for (const auto& n : docker->at("notes").as_array())
    rootEquivalentNoted = rootEquivalentNoted ||
                          std::string(n.as_string()).find("root-equivalent") != std::string::npos ||
                          std::string(n.as_string()).find("rootless") != std::string::npos;
  CHECK(rootEquivalentNoted);

  Run down = run({"qualify", "--json", "--fresh", "--backend", "docker"},
                 {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("").string()},
                  {"DOCKER_HOST", "unix://" + (s.root / "no-engine.sock").string()},
                  {"GITHUB_STEP_SUMMARY", ""}},
                 s.root);
  INFO(down.describe());
  auto d = down.json();
  const auto* gone = backend(d, "docker");
  REQUIRE(gone != nullptr);
  CHECK_FALSE(gone->at("available").as_bool());
  CHECK(gone->at("unavailableReason").as_string().find("no-engine.sock") != std::string::npos);
}

TEST_CASE("qualify: a floor this host cannot meet exits 3 naming the capability, one it meets exits 0 [integration]") {
  LW_REQUIRE_HOST(backendRuns(BackendId::LinuxLandlock), "Landlock is not available here");
  LW_REQUIRE_HOST(backendRuns(BackendId::LinuxBwrap), "bubblewrap cannot run here");
  Scratch s;
  const std::string floor =
      "  requiredCapabilities: [protectedPathReadOnlyMask, syscallFiltering]\n"
      "  allowDirectDedicated: false\n";
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig(floor).string()},
                                            {"GITHUB_STEP_SUMMARY", (s.root / "summary.md").string()}};
  Run unmet = run({"qualify", "--backend", "linux-landlock"}, env, s.root);
  INFO(unmet.describe());
  CHECK(unmet.status == 3);
  CHECK(unmet.err.find("error[SANDBOX_CAPABILITY_INSUFFICIENT]: this host does not meet the floor") !=
        std::string::npos);
  CHECK(unmet.err.find("linux-landlock does not enforce protectedPathReadOnlyMask") != std::string::npos);
  CHECK(unmet.out.find("not cached: a failed qualification is never cached") != std::string::npos);
  std::string summary = slurp(s.root / "summary.md");
  CHECK(summary.find("## loopwright host qualification: floor NOT met") != std::string::npos);

  Run met = run({"qualify", "--backend", "linux-bwrap"}, env, s.root);
  INFO(met.describe());
  CHECK(met.status == 0);
  CHECK(met.out.find("satisfied by linux-bwrap") != std::string::npos);
}

TEST_CASE(
    "qualify: a floor asking for L3 exits 3 with a BLOCKER naming the level, even where direct-dedicated is allowed "
    "[integration]") {
  Scratch s;
  std::map<std::string, std::string> env = {
      {"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("  minIsolation: L3\n  allowDirectDedicated: true\n").string()},
      {"GITHUB_STEP_SUMMARY", ""}};
  Run r = run({"qualify", "--backend", "direct-dedicated", "--backend", "linux-bwrap"}, env, s.root);
  INFO(r.describe());
  CHECK(r.status == 3);
  CHECK(r.err.find("BLOCKER: this host does not meet the floor: isolation L3 (remote: another kernel per step): no "
                   "backend here gives L3: "
                   "no qualified backend would (linux-gvisor gives L3, docker L2). "
                   "Last safe state: nothing ran. Next action: install what gives L3") != std::string::npos);
  CHECK(r.err.find("error[ISOLATION_UNAVAILABLE]") != std::string::npos);
  Run j = run({"qualify", "--json", "--backend", "direct-dedicated"}, env, s.root);
  CHECK(j.status == 3);
  CHECK_FALSE(j.json().at("floor").at("satisfied").as_bool());
}

TEST_CASE(
    "qualify: a floor asking for L3 is met by linux-gvisor on this host, its canaries run on gVisor [integration]") {
  LW_REQUIRE_HOST(::access("/usr/bin/runsc", X_OK) == 0, "gVisor (runsc) is not installed");
  Scratch s;
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("  minIsolation: L3\n").string()},
                                            {"GITHUB_STEP_SUMMARY", ""}};
  Run r = run({"qualify", "--fresh", "--backend", "linux-gvisor"}, env, s.root);
  INFO(r.describe());
  CHECK(r.status == 0);
  CHECK(r.out.find("satisfied by linux-gvisor") != std::string::npos);
}

TEST_CASE("qualify: the cached qualification is much faster, a changed bwrap binary invalidates it [integration]") {
  LW_REQUIRE_HOST(backendRuns(BackendId::LinuxBwrap), "bubblewrap cannot run here");
  Scratch s;
  // A private copy of bwrap first on PATH, so the test may change "the" binary.
  fs::create_directories(s.root / "bin");
  std::string system = sandbox::bwrap::bwrapConfigFor(Environment::fromProcess()).bwrapPath;
  fs::copy_file(system, s.root / "bin" / "bwrap");
  ::chmod((s.root / "bin" / "bwrap").c_str(), 0755);
  const std::string path =
      (s.root / "bin").string() + ":" + Environment::fromProcess().get("PATH").value_or("/usr/bin:/bin");
  std::map<std::string, std::string> env = {
      {"LOOPWRIGHT_HOST_CONFIG", s.hostConfig("").string()}, {"PATH", path}, {"GITHUB_STEP_SUMMARY", ""}};
  Run fresh = run({"qualify", "--json", "--fresh"}, env, s.root);
  REQUIRE_MESSAGE(fresh.status == 0, fresh.describe());
  CHECK_FALSE(fresh.json().at("fromCache").as_bool());
  Run cached = run({"qualify", "--json"}, env, s.root);
  REQUIRE_MESSAGE(cached.status == 0, cached.describe());
  CHECK(cached.json().at("fromCache").as_bool());
  std::cout << "qualify: fresh " << fresh.ms << " ms, cached " << cached.ms << " ms (wall, whole process)\n";
  // Relative, not a wall-time bound: on a loaded machine an ASan start of
  // the binary alone passed 500 ms while no canary ran.
  CHECK(cached.ms * 5 < fresh.ms);

  std::ofstream(s.root / "bin" / "bwrap", std::ios::app) << '\0';  // same program, different binary
  Run changed = run({"qualify", "--json"}, env, s.root);
  REQUIRE_MESSAGE(changed.status == 0, changed.describe());
  CHECK_FALSE(changed.json().at("fromCache").as_bool());
  CHECK(changed.json().at("fingerprint") != fresh.json().at("fingerprint"));
}
