// planValidate: the validate command's StepSpec from the author step's plan.
#include <doctest/doctest.h>

#include "pipeline/author/validate_run.h"

using namespace lw;
using namespace lw::pipeline;
namespace fs = std::filesystem;

namespace {

StepPlan authorPlan() {
  StepPlan plan;
  plan.layout.stepDir = "/runs/r1/steps/fix/fmt";
  plan.layout.outDir = "/runs/r1/steps/fix/fmt/out";
  sandbox::StepSpec& s = plan.spec;
  s.argv = {"./.loopwright/fix-format.sh"};
  s.workspace = "/state/worktrees/r1-fix-fmt";
  s.workdir = "/state/worktrees/r1-fix-fmt";
  s.writablePaths = {"/state/worktrees/r1-fix-fmt/src"};
  s.protectedPaths = {"/state/worktrees/r1-fix-fmt/.git", "/state/worktrees/r1-fix-fmt/.github"};
  s.deniedReadPaths = {"/root/.ssh"};
  s.readOnlyPaths = {"/runs/r1/event.json", "/usr/bin/loopwright"};
  s.outDir = plan.layout.outDir;
  s.network = NetworkMode::LoopbackOnly;
  s.passFd = 3;
  s.image = "registry.example/img@sha256:abc";
  s.maxOutputBytes = 4096;
  s.limits.pids = 77;
  s.env = {{"PATH", "/usr/bin:/bin"},
           {"LOOPWRIGHT_OUT", "/runs/r1/steps/fix/fmt/out"},
           {"LOOPWRIGHT_BRIDGE", "fd:3"},
           {"LOOPWRIGHT_EVENT", "/runs/r1/event.json"},
           {"LOOPWRIGHT_BIN", "/usr/bin/loopwright"},
           {"LOOPWRIGHT_STEP", "fix/fmt"},
           {"LOOPWRIGHT_RUN_ID", "r1"},
           {"HOME", "/runs/r1/steps/fix/fmt/out"}};
  return plan;
}

}  // namespace

TEST_CASE("validate plan: the step's sandbox, the worktree writable, no network, no bridge, its own out dir") {
  const StepPlan plan = authorPlan();
  const sandbox::StepSpec v = planValidate(plan, {"make", "check-format"});
  CHECK(v.argv == std::vector<std::string>{"make", "check-format"});
  CHECK(v.workspace == plan.spec.workspace);
  CHECK(v.workdir == plan.spec.workspace);
  CHECK(v.workspaceWritable);
  CHECK(v.writablePaths.empty());
  CHECK(v.protectedPaths == plan.spec.protectedPaths);
  CHECK(v.deniedReadPaths == plan.spec.deniedReadPaths);
  CHECK(v.readOnlyPaths == plan.spec.readOnlyPaths);
  CHECK(v.outDir == fs::path("/runs/r1/steps/fix/fmt/validate/out"));
  CHECK(v.network == NetworkMode::None);
  CHECK_FALSE(v.passFd.has_value());
  CHECK(v.image == plan.spec.image);
  CHECK(v.maxOutputBytes == 4096);
  CHECK(v.limits.pids == 77);
  CHECK(v.env == std::map<std::string, std::string>{{"PATH", "/usr/bin:/bin"},
                                                    {"LOOPWRIGHT_OUT", "/runs/r1/steps/fix/fmt/validate/out"},
                                                    {"LOOPWRIGHT_STEP", "fix/fmt"},
                                                    {"LOOPWRIGHT_RUN_ID", "r1"},
                                                    {"HOME", "/runs/r1/steps/fix/fmt/validate/out"}});
}

TEST_CASE("validate plan: the layout under the step's directory") {
  const ValidateLayout l = validateLayout("/runs/r1/steps/fix/fmt");
  CHECK(l.dir == fs::path("/runs/r1/steps/fix/fmt/validate"));
  CHECK(l.outDir == fs::path("/runs/r1/steps/fix/fmt/validate/out"));
  CHECK(l.stdoutLog == fs::path("/runs/r1/steps/fix/fmt/validate/stdout.log"));
  CHECK(l.stderrLog == fs::path("/runs/r1/steps/fix/fmt/validate/stderr.log"));
}
