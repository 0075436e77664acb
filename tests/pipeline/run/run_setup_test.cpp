#include <doctest/doctest.h>

#include "pipeline/run/run_setup.h"

using namespace lw;
using namespace lw::pipeline;

namespace {

RunPlan planOf(std::vector<std::pair<std::string, bool>> steps) {
  RunPlan plan;
  PlannedStage stage;
  stage.name = "review";
  for (auto& [name, actionsDefault] : steps) {
    PlannedStep s;
    s.policy.stage = "review";
    s.policy.step = name;
    s.policy.githubActionsDefault = actionsDefault;
    stage.steps.push_back(std::move(s));
  }
  plan.stages.push_back(std::move(stage));
  return plan;
}

}  // namespace

TEST_CASE("actions default warning: only for its direct-dedicated steps on a runner that is not GitHub-hosted") {
  const RunPlan both = planOf({{"a", true}, {"b", false}});
  SUBCASE("self-hosted: the steps that took the default are named") {
    auto w = unsandboxedDefaultWarning(both, std::string("self-hosted"));
    REQUIRE(w);
    CHECK(w->rfind("steps review/a run with no sandbox: ", 0) == 0);
    CHECK(w->find("review/b") == std::string::npos);
    CHECK(w->find("(RUNNER_ENVIRONMENT=self-hosted)") != std::string::npos);
    CHECK(w->find("allowDirectDedicated: true") != std::string::npos);
  }
  SUBCASE("an older runner without RUNNER_ENVIRONMENT is not known to be GitHub-hosted") {
    auto w = unsandboxedDefaultWarning(both, std::nullopt);
    REQUIRE(w);
    CHECK(w->find("(RUNNER_ENVIRONMENT=(unset))") != std::string::npos);
  }
  SUBCASE("GitHub-hosted: the fresh VM is the job's, nothing to warn about") {
    CHECK_FALSE(unsandboxedDefaultWarning(both, std::string("github-hosted")));
  }
  SUBCASE("no step took the default") {
    CHECK_FALSE(unsandboxedDefaultWarning(planOf({{"a", false}}), std::string("self-hosted")));
    CHECK_FALSE(unsandboxedDefaultWarning(RunPlan{}, std::string("self-hosted")));
  }
}
