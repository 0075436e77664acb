#include <doctest/doctest.h>
#include <boost/json.hpp>

#include "github/publish/publication.h"
#include "pipeline/publication_builder.h"
#include "pipeline/run/run_record.h"

using namespace lw;
using namespace lw::pipeline;
namespace json = boost::json;

namespace {

StepRecord step(std::string name, StepOutcome outcome) {
  StepRecord s;
  s.stage = "review";
  s.step = std::move(name);
  s.outcome = outcome;
  s.backend = "linux-bwrap";
  return s;
}

Coverage coverage(bool complete, std::vector<std::string> reviewed) {
  Coverage c;
  c.complete = complete;
  c.reason = complete ? "" : "the model lane failed (HTTP 503)";
  for (auto& p : reviewed) c.files.push_back({p, FileReview::Reviewed, ""});
  c.files.push_back({"dist/app.min.js", FileReview::Skipped, "generated"});
  return c;
}

RunRecord run(std::vector<StepRecord> steps, std::string incrementalFrom = {}) {
  RunRecord r;
  r.runId = "run-1";
  StageRecord st;
  st.name = "review";
  st.ran = true;
  st.steps = std::move(steps);
  r.stages.push_back(std::move(st));
  r.incrementalFrom = std::move(incrementalFrom);
  return r;
}

github::GithubEvent pullRequest() {
  github::GithubEvent e;
  e.name = "pull_request";
  e.action = "synchronize";
  e.repository = {"octo", "hello"};
  e.number = 7;
  e.isPullRequest = true;
  e.headSha = "2222222222222222222222222222222222222222";
  return e;
}

}  // namespace

TEST_CASE("run record: tokens and coverage per step and in total, in run.json and the human summary") {
  StepRecord review = step("review", StepOutcome::Passed);
  review.tokensUsed = 1500;
  review.coverage = coverage(false, {"src/a.c"});
  StepRecord lint = step("lint", StepOutcome::Passed);
  lint.tokensUsed = 0;
  RunRecord r = run({review, lint}, "1111111111111111111111111111111111111111");
  json::value j = toJson(r);
  CHECK(j.at("tokensUsed") == 1500);
  CHECK(j.at("incrementalFrom") == "1111111111111111111111111111111111111111");
  const json::value& s0 = j.at("stages").as_array()[0].at("steps").as_array()[0];
  CHECK(s0.at("tokensUsed") == 1500);
  CHECK(s0.at("coverage").at("complete") == false);
  CHECK(s0.at("coverage").at("files").as_array()[1].at("status") == "skipped");
  CHECK(j.at("stages").as_array()[0].at("steps").as_array()[1].at("coverage").is_null());
  std::string human = humanSummary(r);
  CHECK(human.find("1500 tokens") != std::string::npos);
  CHECK(human.find("coverage: 1 reviewed, 0 clipped, 1 skipped; incomplete: the model lane failed (HTTP 503)") !=
        std::string::npos);
  CHECK(human.find("tokens used: 1500") != std::string::npos);
}

TEST_CASE("run record: an incomplete review fails the job unless the taskpack fails on nothing") {
  StepRecord review = step("review", StepOutcome::Passed);
  review.coverage = coverage(false, {});
  CHECK(judgeRecord(run({review}), FailOn::Error).worst == github::FailureKind::Failed);
  CHECK(judgeRecord(run({review}), FailOn::Never).conclusion == github::Conclusion::Neutral);
  CHECK(judgeRecord(run({review}), FailOn::Never).worst == github::FailureKind::None);
  review.coverage->complete = true;
  CHECK(judgeRecord(run({review}), FailOn::Error).conclusion == github::Conclusion::Success);
}

TEST_CASE("run record: the worst step decides the verdict, as publication reports it") {
  struct Case {
    std::vector<StepOutcome> outcomes;
    github::Conclusion conclusion;
    github::FailureKind worst;
  };
  using github::Conclusion;
  using github::FailureKind;
  const Case cases[] = {
      {{StepOutcome::Passed, StepOutcome::Skipped}, Conclusion::Success, FailureKind::None},
      {{StepOutcome::Passed, StepOutcome::Error}, Conclusion::Failure, FailureKind::Failed},
      {{StepOutcome::Failed, StepOutcome::Refused}, Conclusion::Failure, FailureKind::Refused},
      {{StepOutcome::Refused, StepOutcome::Blocked}, Conclusion::Failure, FailureKind::Guardrail},
      {{StepOutcome::Quarantined, StepOutcome::Blocked, StepOutcome::Failed},
       Conclusion::Failure,
       FailureKind::Verification},
  };
  for (const Case& c : cases) {
    std::vector<StepRecord> steps;
    for (StepOutcome o : c.outcomes) steps.push_back(step(std::string(toString(o)), o));
    RunRecord r = run(steps);
    CAPTURE(toString(c.worst));
    github::Verdict v = judgeRecord(r, FailOn::Error);
    CHECK(v.conclusion == c.conclusion);
    CHECK(v.worst == c.worst);
    github::PublicationRequest req = toPublicationRequest(r, pullRequest(), Publication{});
    CHECK_FALSE(req.conclusion);  // decided once, by concludeRun
    CHECK(github::concludeRun(req).conclusion == c.conclusion);
    CHECK(req.conclusion == c.conclusion);
  }
}

TEST_CASE("publication builder: the step rows carry outcome, coverage and tokens, and the conclusion is the verdict") {
  StepRecord review = step("review", StepOutcome::Passed);
  review.coverage = coverage(false, {"src/a.c"});
  review.tokensUsed = 42;
  Publication options;
  options.failOn = FailOn::Error;
  github::PublicationRequest req = toPublicationRequest(run({review}), pullRequest(), options);
  REQUIRE(req.steps.size() == 1);
  CHECK(req.steps[0].outcome == StepOutcome::Passed);
  CHECK(req.steps[0].tokensUsed == 42);
  REQUIRE(req.steps[0].coverage);
  github::concludeRun(req);
  CHECK(req.conclusion == github::Conclusion::Failure);
  options.failOn = FailOn::Never;
  github::PublicationRequest never = toPublicationRequest(run({review}), pullRequest(), options);
  github::concludeRun(never);
  CHECK(never.conclusion == github::Conclusion::Neutral);

  // It survives the outbox.
  auto back = github::publicationFromJson(github::toJson(req));
  REQUIRE(back.ok());
  REQUIRE(back->steps[0].coverage);
  CHECK(back->steps[0].coverage->reason == "the model lane failed (HTTP 503)");
  CHECK(back->steps[0].outcome == StepOutcome::Passed);
  CHECK(back->steps[0].tokensUsed == 42);
  REQUIRE(back->reviewedFiles);
  CHECK(*back->reviewedFiles == std::vector<std::string>{"src/a.c"});
}

TEST_CASE("publication builder: where gone findings are resolved") {
  Publication options;
  StepRecord review = step("review", StepOutcome::Passed);
  review.coverage = coverage(true, {"src/a.c", "src/b.c"});
  auto scoped = toPublicationRequest(run({review}), pullRequest(), options);
  REQUIRE(scoped.reviewedFiles);
  CHECK(*scoped.reviewedFiles == std::vector<std::string>{"src/a.c", "src/b.c"});

  StepRecord security = step("security", StepOutcome::Passed);
  CHECK_FALSE(toPublicationRequest(run({security}), pullRequest(), options).reviewedFiles.has_value());
  auto incremental =
      toPublicationRequest(run({security}, "1111111111111111111111111111111111111111"), pullRequest(), options);
  REQUIRE(incremental.reviewedFiles);
  CHECK(incremental.reviewedFiles->empty());

  StepRecord failed = step("review", StepOutcome::Failed);
  failed.message = "exited with status 3";
  auto none = toPublicationRequest(run({failed, security}), pullRequest(), options);
  REQUIRE(none.reviewedFiles);
  CHECK(none.reviewedFiles->empty());
  CHECK(github::concludeRun(none).conclusion == github::Conclusion::Failure);
}

TEST_CASE("publication builder: a BLOCKER names the run's out dir and the checkout, not where they are on the runner") {
  StepRecord looper = step("looper", StepOutcome::Blocked);
  looper.blocker =
      "BLOCKER: loop detected. Last safe state: output in /home/runner/work/_temp/loopwright/r1/steps/review/"
      "looper/out, logs in /home/runner/work/_temp/loopwright/r1/steps/review/looper; the tree at "
      "/home/runner/work/hello/hello is unchanged. Next action: look at the step's calls.";
  RunRecord r = run({looper});
  r.outDir = "/home/runner/work/_temp/loopwright/r1";
  r.repo = "/home/runner/work/hello/hello";
  github::PublicationRequest req = toPublicationRequest(r, pullRequest(), Publication{});
  REQUIRE(req.steps.size() == 1);
  const std::string& published = req.steps[0].blocker;
  CHECK(published.find("/home/runner") == std::string::npos);
  CHECK(published.find("output in <run out dir>/steps/review/looper/out, logs in <run out dir>/steps/review/looper") !=
        std::string::npos);
  CHECK(published.find("the tree at <checkout> is unchanged") != std::string::npos);
  CHECK(github::concludeRun(req).conclusion == github::Conclusion::Failure);
}
