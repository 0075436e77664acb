// The task contract's validate run in a real sandbox (bubblewrap, Landlock):
// planned from an author step's plan on a temporary git worktree, launched,
// judged. Passed only on exit 0 within time; the worktree is writable, the
// rest of the host is not.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/environment.h"
#include "pipeline/author/contract_plan.h"
#include "pipeline/author/validate_run.h"
#include "sandbox/docker/docker_backend.h"
#include "sandbox/docker/endpoint.h"
#include "sandbox/registry/backend_registry.h"
#include "support/host_requirement.h"
#include "support/read_file.h"
#include "support/temp_dir.h"

using namespace lw;
using namespace lw::pipeline;
namespace fs = std::filesystem;

namespace {

// The orchestrator's checkout, an author's linked worktree of it (its .git
// a file, git's state in the checkout's .git), the step's directory beside
// them, and a directory outside all of them.
struct Scene {
  test::TempDir tmp;
  fs::path checkout = tmp.root / "checkout";
  fs::path worktree = tmp.root / "worktree";
  fs::path stepDir = tmp.root / "run/steps/fix/fmt";
  fs::path outside = tmp.root / "outside";
  Scene() {
    fs::create_directories(stepDir / "out");
    fs::create_directories(outside);
    tmp.write("checkout/src/a.c", "int main(void) { return 0; }\n");
    const std::string cmd = "cd '" + checkout.string() +
                            "' && git init -q -b main . && git add -A && "
                            "git -c user.email=t@e -c user.name=t commit -q -m base && "
                            "git worktree add -q --detach '" +
                            worktree.string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
  }
  // The author step's plan as planStep makes it for a writable scope of src/.
  StepPlan authorPlan() const {
    StepPlan plan;
    plan.layout.stepDir = stepDir;
    plan.layout.outDir = stepDir / "out";
    plan.spec.argv = {"/bin/true"};
    plan.spec.workspace = worktree;
    plan.spec.workdir = worktree;
    plan.spec.writablePaths = {worktree / "src"};
    plan.spec.protectedPaths = {worktree / ".git"};
    plan.spec.readOnlyPaths = {checkout / ".git"};
    plan.spec.outDir = plan.layout.outDir;
    plan.spec.env = {{"PATH", "/usr/bin:/bin"},
                     {"OUTSIDE", outside.string()},
                     {"COMMON", (checkout / ".git").string()},
                     {"LOOPWRIGHT_BRIDGE", "fd:3"}};
    return plan;
  }
  ValidationRun validate(sandbox::Backend& backend, const std::string& script, std::int64_t wallTimeMs = 30'000) {
    const sandbox::StepSpec spec = planValidate(authorPlan(), {"/bin/sh", "-c", script});
    return runValidation(backend, spec, validateLayout(stepDir), wallTimeMs, verify::SecretScanner({"s3cr3t-value"}));
  }
};

// The real backends of this host that a validate run is tested on.
std::vector<std::unique_ptr<sandbox::Backend>> sandboxes() {
  std::vector<std::unique_ptr<sandbox::Backend>> out;
  for (auto& b : sandbox::makeBackends(Environment::fromProcess()))
    if (b->id() == BackendId::LinuxBwrap || b->id() == BackendId::LinuxLandlock) out.push_back(std::move(b));
  return out;
}

// Runs `body` on each backend available here; a missing one is skipped, saying why.
template <class Body>
void onEachSandbox(Body body) {
  for (auto& backend : sandboxes()) {
    const std::string name(toString(backend->id()));
    LW_REQUIRE_HOST(backend->probe().available, name + " unavailable: " + backend->probe().unavailableReason);
    CAPTURE(name);
    body(*backend);
  }
}

}  // namespace

TEST_CASE("validate run: a passing command, with its build output in the worktree and its logs masked [integration]") {
  onEachSandbox([](sandbox::Backend& backend) {
    Scene s;
    ValidationRun run = s.validate(backend,
                                   "test -z \"$LOOPWRIGHT_BRIDGE\" || exit 9; echo built > build.o && "
                                   "echo ok s3cr3t-value && echo done > \"$LOOPWRIGHT_OUT/report\"");
    CHECK(run.error == "");
    CHECK(run.passed);
    CHECK(run.exitStatus == 0);
    CHECK_FALSE(run.timedOut);
    CHECK(run.command == std::vector<std::string>{"/bin/sh", "-c", run.command[2]});
    CHECK(lw::test::readFile(s.worktree / "build.o") == "built\n");
    CHECK(lw::test::readFile(s.stepDir / "validate/out/report") == "done\n");
    CHECK(run.stdoutPath == (s.stepDir / "validate/stdout.log").string());
    CHECK(lw::test::readFile(run.stdoutPath) == "ok ***\n");
    CHECK(run.secretsMasked == 1);
    CHECK_FALSE(judgeValidation(run).has_value());
  });
}

TEST_CASE("validate run: a failing command fails the contract with its status [integration]") {
  onEachSandbox([](sandbox::Backend& backend) {
    Scene s;
    ValidationRun run = s.validate(backend, "echo 'src/a.c: not formatted' >&2; exit 2");
    CHECK_FALSE(run.passed);
    CHECK(run.exitStatus == 2);
    CHECK(lw::test::readFile(run.stderrPath) == "src/a.c: not formatted\n");
    auto refusal = judgeValidation(run);
    REQUIRE(refusal);
    CHECK(refusal->code == ErrorCode::ContractUnmet);
    CHECK(refusal->message == "validate `/bin/sh -c echo 'src/a.c: not formatted' >&2; exit 2` exited 2");
  });
}

// The worktree's own .git file is protected where the backend can keep a
// path read-only inside a writable tree (bubblewrap); Landlock cannot, and
// needs not here: the patch was captured before, and the worktree is
// removed by path and name without reading what it left.
TEST_CASE(
    "validate run: a command that writes outside the worktree or into the checkout's git state is contained "
    "[integration]") {
  onEachSandbox([](sandbox::Backend& backend) {
    Scene s;
    const std::string configBefore = lw::test::readFile(s.checkout / ".git/config");
    ValidationRun run = s.validate(backend,
                                   "git status --short >/dev/null || exit 4; "
                                   "echo x > \"$OUTSIDE/escaped\"; echo y >> \"$COMMON/config\"; "
                                   "echo z > \"$COMMON/../src/escaped.c\"; "
                                   "test -e \"$OUTSIDE/escaped\" && exit 0; exit 3");
    CHECK_FALSE(run.passed);
    CHECK(run.exitStatus == 3);
    CHECK_FALSE(fs::exists(s.outside / "escaped"));
    CHECK_FALSE(fs::exists(s.checkout / "src/escaped.c"));
    CHECK(lw::test::readFile(s.checkout / ".git/config") == configBefore);
  });
}

TEST_CASE("validate run: a command past the step's wall time is stopped and fails [integration]") {
  onEachSandbox([](sandbox::Backend& backend) {
    Scene s;
    const auto started = std::chrono::steady_clock::now();
    ValidationRun run = s.validate(backend, "sleep 30", 500);
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    CHECK_FALSE(run.passed);
    CHECK(run.timedOut);
    CHECK(run.wallTimeMs == 500);
    CHECK(judgeValidation(run)->message == "validate `/bin/sh -c sleep 30` ran past the step's wall time of 500 ms");
  });
}

TEST_CASE("validate run: a command that cannot be started fails, saying why [integration]") {
  onEachSandbox([](sandbox::Backend& backend) {
    Scene s;
    const sandbox::StepSpec spec = planValidate(s.authorPlan(), {"no-such-validator"});
    ValidationRun run = runValidation(backend, spec, validateLayout(s.stepDir), 30'000, verify::SecretScanner());
    CHECK_FALSE(run.passed);
    CHECK(judgeValidation(run).has_value());
  });
}

// On the docker backend (L2), the container is the sandbox: the same plan,
// the step's pinned image, the worktree mounted writable. Needs the private
// engine of scripts/docker-test-env.sh.
TEST_CASE("validate run: on docker, passes, fails with its status, stops at the wall time [integration]") {
  const Environment env = Environment::fromProcess();
  const auto image = env.get("LOOPWRIGHT_TEST_DOCKER_IMAGE");
  LW_REQUIRE_HOST(env.get("DOCKER_HOST") && image && !image->empty(),
                  "DOCKER_HOST and LOOPWRIGHT_TEST_DOCKER_IMAGE are unset: run scripts/docker-test-env.sh start, "
                  "then eval \"$(scripts/docker-test-env.sh env)\"");
  auto socket = sandbox::docker::dockerSocketPath(env);
  REQUIRE_MESSAGE(socket.ok(), (socket.ok() ? "" : socket.error().message));
  sandbox::docker::DockerConfig config;
  config.socketPath = *socket;
  config.runLabel = "itest-" + std::to_string(::getpid());
  config.initBinary = LOOPWRIGHT_CONTAINER_INIT;
  auto docker = std::make_unique<sandbox::docker::DockerBackend>(config);
  LW_REQUIRE_HOST(docker->probe().available, "docker unavailable: " + docker->probe().unavailableReason);
  Scene s;
  auto validate = [&](const std::string& script, std::int64_t wallTimeMs) {
    StepPlan plan = s.authorPlan();
    plan.spec.image = *image;
    plan.spec.readOnlyPaths.clear();  // a container sees no host files
    return runValidation(*docker, planValidate(plan, {"/bin/sh", "-c", script}), validateLayout(s.stepDir), wallTimeMs,
                         verify::SecretScanner());
  };
  ValidationRun passed = validate("echo built > build.o && echo ok", 60'000);
  CHECK_MESSAGE(passed.passed, passed.error);
  CHECK(lw::test::readFile(s.worktree / "build.o") == "built\n");
  CHECK(lw::test::readFile(passed.stdoutPath) == "ok\n");
  ValidationRun failed = validate("echo x > \"$OUTSIDE/escaped\"; exit 2", 60'000);
  CHECK(failed.exitStatus == 2);
  CHECK_FALSE(fs::exists(s.outside / "escaped"));
  ValidationRun slow = validate("sleep 30", 1'000);
  CHECK(slow.timedOut);
  CHECK_FALSE(slow.passed);
}
