// planStep: the backend's traits, not its name, decide the bridge, the
// event, the host view and the image; asserted on plain data, no host.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "pipeline/step/step_plan.h"

using namespace lw;
using namespace lw::pipeline;
namespace fs = std::filesystem;

namespace {

sandbox::BackendTraits descriptorTraits() { return {}; }

sandbox::BackendTraits socketTraits() {
  sandbox::BackendTraits t;
  t.bridge = sandbox::BackendTraits::BridgeTransport::SocketPath;
  t.hostFilesVisible = false;
  t.needsImage = true;
  return t;
}

// A host where only `files` exist (regular files; no symlinks).
HostLookups hostWith(std::set<fs::path> files) {
  HostLookups h;
  h.isRegularFile = [files](const fs::path& p) { return files.count(p) > 0; };
  h.existsNotSymlink = [files](const fs::path& p) { return files.count(p) > 0; };
  return h;
}

struct PlanFixture {
  Environment env{std::map<std::string, std::string>{{"PATH", "/usr/bin"}, {"SECRET_TOKEN", "x"}}};
  RunContext ctx;
  Step step;
  PlannedStep planned;
  PlanFixture() {
    ctx.runId = "r7";
    ctx.repo = "/ws";
    ctx.outRoot = "/out";
    ctx.eventFile = "/run/lw/event.json";
    ctx.selfExe = "/opt/lw/loopwright";
    ctx.env = &env;
    step.name = "lint";
    step.run = {"make", "lint"};
    planned.step = &step;
    planned.policy.stage = "review";
    planned.policy.step = "lint";
    planned.policy.sandbox.protectedPaths = {".github"};
    planned.policy.sandbox.deniedReadPaths = {"/etc/shadow"};
    planned.policy.sandbox.runtimeProfile = RuntimeProfile{};
    planned.policy.sandbox.runtimeProfile->image = "ghcr.io/x/y@sha256:abc";
  }
  StepPlan plan(const sandbox::BackendTraits& traits, const HostLookups& host = hostWith({})) {
    auto p = planStep(planned, traits, "the-backend", ctx, host);
    REQUIRE(p.ok());
    return *p;
  }
};

}  // namespace

TEST_CASE("step plan: a descriptor backend gets fd 3, the run's event and loopwright read-only, no image") {
  PlanFixture f;
  StepPlan p = f.plan(descriptorTraits());
  CHECK(p.bridge == BridgeKind::Descriptor);
  CHECK(p.bridgeSocket.empty());
  CHECK_FALSE(p.copyEvent);
  CHECK(p.eventFile == "/run/lw/event.json");
  CHECK(p.layout.stepDir == "/out/steps/review/lint");
  CHECK(p.spec.outDir == "/out/steps/review/lint/out");
  CHECK(p.spec.argv == std::vector<std::string>{"make", "lint"});
  CHECK(p.spec.readOnlyPaths == std::vector<fs::path>{"/run/lw/event.json", "/opt/lw/loopwright"});
  CHECK_FALSE(p.spec.image.has_value());
  CHECK_FALSE(p.spec.passFd.has_value());  // only the bridge, once made, gives it
  CHECK(p.spec.protectedPaths == std::vector<fs::path>{"/ws/.github"});
  CHECK(p.spec.deniedReadPaths == std::vector<fs::path>{"/etc/shadow"});
  CHECK_FALSE(p.spec.workspaceWritable);
  CHECK(p.spec.env == std::map<std::string, std::string>{{"PATH", "/usr/bin"},
                                                         {"HOME", "/out/steps/review/lint/out"},
                                                         {"LOOPWRIGHT_BIN", "/opt/lw/loopwright"},
                                                         {"LOOPWRIGHT_BRIDGE", "fd:3"},
                                                         {"LOOPWRIGHT_EVENT", "/run/lw/event.json"},
                                                         {"LOOPWRIGHT_OUT", "/out/steps/review/lint/out"},
                                                         {"LOOPWRIGHT_RUN_ID", "r7"},
                                                         {"LOOPWRIGHT_STEP", "review/lint"}});
}

TEST_CASE("step plan: a socket backend gets a socket in its out dir, a copy of the event, the image, no host paths") {
  PlanFixture f;
  StepPlan p = f.plan(socketTraits());
  CHECK(p.bridge == BridgeKind::SocketPath);
  CHECK(p.bridgeSocket == "/out/steps/review/lint/out/bridge.sock");
  CHECK(p.copyEvent);
  CHECK(p.eventFile == "/out/steps/review/lint/out/event.json");
  CHECK(p.spec.readOnlyPaths.empty());
  CHECK(p.spec.image == std::optional<std::string>("ghcr.io/x/y@sha256:abc"));
  CHECK(p.spec.env.at("LOOPWRIGHT_BRIDGE") == "/out/steps/review/lint/out/bridge.sock");
  CHECK(p.spec.env.at("LOOPWRIGHT_EVENT") == "/out/steps/review/lint/out/event.json");
  CHECK(p.spec.env.count("LOOPWRIGHT_BIN") == 0);  // not in the image
}

TEST_CASE("step plan: each trait on its own decides its part of the plan") {
  PlanFixture f;
  sandbox::BackendTraits t;
  SUBCASE("a socket bridge alone: host files are still visible, the event is not copied") {
    t.bridge = sandbox::BackendTraits::BridgeTransport::SocketPath;
    StepPlan p = f.plan(t);
    CHECK(p.bridge == BridgeKind::SocketPath);
    CHECK_FALSE(p.copyEvent);
    CHECK(p.spec.env.at("LOOPWRIGHT_BIN") == "/opt/lw/loopwright");
  }
  SUBCASE("an image alone: the bridge stays a descriptor") {
    t.needsImage = true;
    StepPlan p = f.plan(t);
    CHECK(p.bridge == BridgeKind::Descriptor);
    CHECK(p.spec.image.has_value());
    CHECK(p.spec.readOnlyPaths.size() == 2);
  }
}

TEST_CASE("step plan: a built-in runs the engine beside loopwright, made visible for that step") {
  PlanFixture f;
  f.step.run.clear();
  f.step.uses = "builtin/review";
  SUBCASE("with the engine installed") {
    StepPlan p = f.plan(descriptorTraits(), hostWith({"/opt/lw/loopwright-engine"}));
    REQUIRE(p.spec.argv.size() == 5);
    CHECK(p.spec.argv[0] == "/opt/lw/loopwright-engine");
    CHECK(p.spec.argv[1] == "agent");
    CHECK(p.spec.argv[2] == "review");
    CHECK(p.spec.readOnlyPaths.back() == "/opt/lw/loopwright-engine");
  }
  SUBCASE("without an engine: refused, naming what is missing") {
    auto p = planStep(f.planned, descriptorTraits(), "linux-bwrap", f.ctx, hostWith({}));
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().code == ErrorCode::SandboxLaunchFailed);
    CHECK(p.error().message == "'builtin/review' needs loopwright-engine beside /opt/lw/loopwright, and there is none");
  }
  SUBCASE("on a backend whose steps do not see host files: refused, naming the backend") {
    auto p = planStep(f.planned, socketTraits(), "docker", f.ctx, hostWith({"/opt/lw/loopwright-engine"}));
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().code == ErrorCode::SandboxLaunchFailed);
    CHECK(p.error().message == "'builtin/review' cannot run on docker: the step there does not see loopwright");
  }
}

TEST_CASE("step plan: an author writes its writable roots that exist, or the whole workspace without writable") {
  PlanFixture f;
  f.planned.policy.role = Role::Author;
  SUBCASE("no writable: the whole workspace") {
    StepPlan p = f.plan(descriptorTraits());
    CHECK(p.spec.workspaceWritable);
    CHECK(p.spec.writablePaths.empty());
  }
  SUBCASE("globs: the directory before the first wildcard, when it exists") {
    f.step.writable = {"src/**", "docs/*.md", "missing/**", "src/x/**"};
    StepPlan p = f.plan(descriptorTraits(), hostWith({"/ws/src", "/ws/docs", "/ws/src/x"}));
    CHECK_FALSE(p.spec.workspaceWritable);
    CHECK(p.spec.writablePaths == std::vector<fs::path>{"/ws/src", "/ws/docs", "/ws/src/x"});
  }
}

TEST_CASE("step plan: the check policy follows the role") {
  PlanFixture f;
  auto reviewer = checkPolicyFor(f.planned, "r7");
  CHECK(reviewer.role == Role::Reviewer);
  CHECK(reviewer.writableGlobs == std::vector<std::string>{"**"});
  CHECK(reviewer.protectedGlobs == std::vector<std::string>{".github"});
  CHECK(reviewer.stepName == "review-lint");
  CHECK(reviewer.runId == "r7");
  CHECK(reviewer.restore);
  f.step.writable = {"src/**"};
  CHECK(checkPolicyFor(f.planned, "r7").writableGlobs == std::vector<std::string>{"src/**"});
}

TEST_CASE("step plan: an allow-list step runs behind the step init's egress relay, with the proxy variables set") {
  PlanFixture f;
  f.planned.policy.sandbox.networkMode = NetworkMode::AllowList;
  const fs::path init = "/opt/lw/loopwright-container-init";
  auto plan = f.plan(descriptorTraits(), hostWith({init}));
  CHECK(plan.egressSocket == "/out/steps/review/lint/egress/proxy.sock");
  CHECK(plan.spec.argv == std::vector<std::string>{init.string(), "--egress-relay",
                                                   "/out/steps/review/lint/egress/proxy.sock", "--", "make", "lint"});
  CHECK(std::count(plan.spec.readOnlyPaths.begin(), plan.spec.readOnlyPaths.end(), init) == 1);
  CHECK(std::count(plan.spec.readOnlyPaths.begin(), plan.spec.readOnlyPaths.end(),
                   fs::path("/out/steps/review/lint/egress")) == 1);
  CHECK(plan.spec.env.at("HTTPS_PROXY") == "http://127.0.0.1:3128");
  CHECK(plan.spec.env.at("http_proxy") == "http://127.0.0.1:3128");
  CHECK(plan.spec.env.at("NO_PROXY") == "localhost,127.0.0.1,::1");
}

TEST_CASE("step plan: allow-list is refused where the relay cannot run: no step init, or no host files visible") {
  PlanFixture f;
  f.planned.policy.sandbox.networkMode = NetworkMode::AllowList;
  auto missing = planStep(f.planned, descriptorTraits(), "linux-bwrap", f.ctx, hostWith({}));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == ErrorCode::SandboxLaunchFailed);
  CHECK(missing.error().message.find("cannot find it") != std::string::npos);
  auto hidden = planStep(f.planned, socketTraits(), "docker", f.ctx, hostWith({"/opt/lw/loopwright-container-init"}));
  REQUIRE_FALSE(hidden.ok());
  CHECK(hidden.error().message.find("does not show host files") != std::string::npos);
}

TEST_CASE("step plan: a backend that connects the step to its proxy itself gets the socket, not the relay") {
  PlanFixture f;
  f.planned.policy.sandbox.networkMode = NetworkMode::AllowList;
  lw::sandbox::BackendTraits traits = socketTraits();  // no host files: the relay is the backend's to run
  traits.egress = lw::sandbox::BackendTraits::EgressPath::ByBackend;
  auto plan = f.plan(traits, hostWith({}));
  CHECK(plan.egressSocket == "/out/steps/review/lint/egress/proxy.sock");
  CHECK(plan.spec.egressSocket == plan.egressSocket);
  CHECK(plan.spec.argv == std::vector<std::string>{"make", "lint"});
  CHECK(plan.spec.env.at("HTTPS_PROXY") == "http://127.0.0.1:3128");
}

TEST_CASE("step plan: other network modes get no relay and no proxy variables") {
  PlanFixture f;
  auto plan = f.plan(descriptorTraits(), hostWith({"/opt/lw/loopwright-container-init"}));
  CHECK(plan.egressSocket.empty());
  CHECK(plan.spec.argv == std::vector<std::string>{"make", "lint"});
  CHECK(plan.spec.env.count("HTTPS_PROXY") == 0);
}
