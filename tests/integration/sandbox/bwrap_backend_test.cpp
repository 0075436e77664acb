#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <boost/json.hpp>

#include "sandbox/bwrap/bwrap_backend.h"
#include "sandbox/probe_report_json.h"
#include "support/host_requirement.h"

using namespace lw::sandbox;
using namespace lw::sandbox::bwrap;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path dir;
  Scratch() {
    char t[] = "/tmp/lw-bwrap-test-XXXXXX";
    dir = ::mkdtemp(t);
    fs::create_directories(dir / "ws");
    fs::create_directories(dir / "out");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

BwrapConfig config(const fs::path& cache = {}) {
  BwrapConfig c = bwrapConfigFor(lw::Environment::fromProcess());
  if (cache.empty())
    c.cacheFile.reset();
  else
    c.cacheFile = cache;
  return c;
}

StepSpec step(const Scratch& s, std::vector<std::string> argv) {
  StepSpec spec;
  spec.argv = std::move(argv);
  spec.workspace = s.dir / "ws";
  spec.outDir = s.dir / "out";
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  return spec;
}

lw::sandbox::process::ExitInfo run(BwrapBackend& b, const StepSpec& spec, std::string* out = nullptr,
                                   std::string* err = nullptr) {
  auto p = b.launch(spec);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  auto info = (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  if (out) *out = (*p)->stdoutData().data;
  if (err) *err = (*p)->stderrData().data;
  return info;
}

std::string st(Support s) { return std::string(toString(s)); }

}  // namespace

TEST_CASE("bwrap backend: the probe observes every capability on this host") {
  BwrapBackend b(config());
  LW_REQUIRE_HOST(!b.probe().unavailableReason.starts_with("bubblewrap (bwrap) is not installed"),
                  "bubblewrap is not installed");
  const ProbeReport& r = b.probe();
  INFO(boost::json::serialize(toJson(r)));
  LW_REQUIRE_HOST(r.available, "bwrap cannot create namespaces here: " + r.unavailableReason);
  for (lw::Capability c : lw::kAllCapabilities) {
    CHECK_MESSAGE(st(r.capabilities.at(c).support) == "enforced", std::string(toString(c)));
  }
  CHECK(st(r.networkModes.at(lw::NetworkMode::None).support) == "enforced");
  CHECK(st(r.networkModes.at(lw::NetworkMode::LoopbackOnly).support) == "enforced");
  CHECK(st(r.networkModes.at(lw::NetworkMode::AllowOutbound).support) == "partial");
  CHECK(r.version.starts_with("bubblewrap "));
}

TEST_CASE("bwrap backend: the probe is cached on disk and reused") {
  Scratch s;
  fs::path cache = s.dir / "cache.json";
  auto freshStart = std::chrono::steady_clock::now();
  BwrapBackend first(config(cache));
  const bool available = first.probe().available;
  auto fresh = std::chrono::steady_clock::now() - freshStart;
  LW_REQUIRE_HOST(available, "bwrap unavailable: " + first.probe().unavailableReason);
  REQUIRE(fs::exists(cache));
  auto start = std::chrono::steady_clock::now();
  BwrapBackend second(config(cache));
  const ProbeReport& r = second.probe();
  auto took = std::chrono::steady_clock::now() - start;
  CHECK(boost::json::serialize(toJson(r)) == boost::json::serialize(toJson(first.probe())));
  // Read from the cache: at most a fifth of the real probe measured just before.
  INFO("fresh " << std::chrono::duration<double, std::milli>(fresh).count() << " ms, cached "
                << std::chrono::duration<double, std::milli>(took).count() << " ms");
  CHECK(took * 5 < fresh);
  // A cache written for another key is not believed.
  std::ofstream(cache) << R"({"key":"other","probedAt":1,"report":{}})";
  BwrapBackend third(config(cache));
  CHECK(third.probe().available);
}

TEST_CASE("bwrap backend: runs the step with its exit status, output and scrubbed view") {
  Scratch s;
  BwrapBackend b(config());
  LW_REQUIRE_HOST(b.probe().available, "bwrap unavailable: " + b.probe().unavailableReason);
  std::ofstream(s.dir / "ws" / "hello.txt") << "hi\n";
  std::string out;
  auto info = run(b, step(s, {"/bin/sh", "-c", "cat hello.txt; echo $PWD; echo x > $LW_OUT/o; exit 5"}), &out);
  CHECK(info.exitCode == 5);
  CHECK(out == "hi\n" + (s.dir / "ws").string() + "\n");
}

TEST_CASE("bwrap backend: a missing protected path cannot be created and leaves nothing behind") {
  Scratch s;
  BwrapBackend b(config());
  LW_REQUIRE_HOST(b.probe().available, "bwrap unavailable: " + b.probe().unavailableReason);
  StepSpec spec = step(s, {"/bin/sh", "-c",
                           "mkdir -p .loopwright/policies 2>/dev/null && echo made; "
                           "echo x > AGENTS.md 2>/dev/null && echo wrote; echo x > ok && echo ok"});
  spec.workspaceWritable = true;
  spec.protectedPaths = {".loopwright/policies", "AGENTS.md"};
  std::string out;
  run(b, spec, &out);
  CHECK(out == "ok\n");
  CHECK(!fs::exists(s.dir / "ws" / ".loopwright"));
  CHECK(!fs::exists(s.dir / "ws" / "AGENTS.md"));
  CHECK(fs::exists(s.dir / "ws" / "ok"));
}

TEST_CASE("bwrap backend: the planner's note on a protected symlink reaches the launched process") {
  Scratch s;
  BwrapBackend b(config());
  LW_REQUIRE_HOST(b.probe().available, "bwrap unavailable: " + b.probe().unavailableReason);
  fs::create_directories(s.dir / "elsewhere");
  fs::create_symlink(s.dir / "elsewhere", s.dir / "ws" / ".github");
  StepSpec spec = step(s, {"/bin/sh", "-c", "echo x > ok 2>/dev/null || echo read-only"});
  spec.workspaceWritable = true;
  spec.protectedPaths = {".github"};
  auto p = b.launch(spec);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  CHECK((*p)->stdoutData().data == "read-only\n");
  const std::string ws = (s.dir / "ws").string();
  REQUIRE((*p)->planNotes().size() == 1);
  CHECK((*p)->planNotes()[0] == "protected path " + ws + "/.github goes through the symlink " + ws + "/.github: " + ws +
                                    " is read-only for this step");
}

TEST_CASE("bwrap backend: a plain step carries no planner notes") {
  Scratch s;
  BwrapBackend b(config());
  LW_REQUIRE_HOST(b.probe().available, "bwrap unavailable: " + b.probe().unavailableReason);
  auto p = b.launch(step(s, {"/bin/true"}));
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  (*p)->wait(std::chrono::steady_clock::now() + std::chrono::seconds(30));
  CHECK((*p)->planNotes().empty());
}
