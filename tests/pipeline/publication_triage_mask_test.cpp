#include <doctest/doctest.h>

#include "pipeline/publication_builder.h"

using namespace lw;

TEST_CASE("publication builder: a token in a triage duplicate reason or label is masked") {
  const std::string token = "ghp_" + std::string(36, 'a');
  pipeline::RunRecord run;
  run.runId = "r-1";
  pipeline::StageRecord stage;
  stage.name = "triage";
  stage.ran = true;
  pipeline::StepRecord step;
  step.stage = "triage";
  step.step = "triage";
  TriageResult t;
  t.labels = {"bug", token};
  t.duplicates = {{.number = 3, .reason = "same as " + token + " in #3"}};
  step.triage = t;
  stage.steps.push_back(step);
  run.stages.push_back(stage);
  github::GithubEvent event;
  event.repository = {"octo", "hello"};
  event.number = 12;

  auto req = pipeline::toPublicationRequest(run, event, Publication{});
  REQUIRE(req.triage.size() == 1);
  CHECK(req.triage[0].duplicates[0].reason == "same as *** in #3");
  CHECK(req.triage[0].labels == std::vector<std::string>{"bug", "***"});
}
