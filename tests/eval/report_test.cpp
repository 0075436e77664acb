#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "eval/report.h"

using namespace lw;
using namespace lw::eval;

namespace {

Finding finding(std::string step, int line, std::string rule) {
  Finding f;
  f.step = std::move(step);
  f.path = "a.py";
  f.line = line;
  f.ruleId = std::move(rule);
  return f;
}

EvalCase twoBugs() {
  EvalCase c;
  c.name = "two";
  c.tolerance = 0;
  FindingPattern p;
  p.path = "a.py";
  p.lines = {3, 3};
  p.step = "review";
  c.expect = {p};
  p.lines = {7, 7};
  p.step = "";
  c.expect.push_back(p);
  return c;
}

// One repeat of case "two": `review` finds line 3 (and line 9 when
// `noisy`), `security` finds line 7; review spent 1000 tokens on lane m.
CaseRun runOf(int repeat, bool noisy) {
  CaseRun r;
  r.caseName = "two";
  r.repeat = repeat;
  r.diff = {{"a.py", {{1, 10}}}};
  r.findings = {finding("review", 3, "x"), finding("security", 7, "y")};
  if (noisy) r.findings.push_back(finding("review", 9, "z"));
  r.steps = {{"review", "m", "passed", true, 1000, 40}, {"security", "", "passed", true, 0, 10}};
  r.stepsMs = 50;
  r.wallMs = 60;
  return r;
}

}  // namespace

TEST_CASE("eval report: counts are summed, metrics averaged over repeats with their spread, cost from the price") {
  auto report = buildReport({twoBugs()}, {runOf(0, false), runOf(1, true)}, {{"m", 2.0}}, 2);
  REQUIRE(report.steps.size() == 2);
  const ScopeSummary& review = report.steps[0];
  CHECK(review.name == "review");
  CHECK(review.counts.truePositives == 2);
  CHECK(review.counts.falsePositives == 1);
  CHECK(review.counts.falseNegatives == 0);
  CHECK(review.precision.samples == 2);
  CHECK(review.precision.mean == doctest::Approx(0.75));  // 1.0 and 0.5
  CHECK(review.precision.stddev == doctest::Approx(0.25));
  CHECK(review.findingsPerCase == doctest::Approx(1.5));
  CHECK(review.tokens == 2000);
  REQUIRE(review.costUsd);
  CHECK(*review.costUsd == doctest::Approx(0.004));
  CHECK(report.all.counts.truePositives == 4);
  CHECK(report.all.recall.mean == doctest::Approx(1.0));
  CHECK(report.wallMs == 120);
  CHECK(report.stepsMs == 100);
  REQUIRE(report.lanes.size() == 2);
  CHECK(report.lanes[0].name == "m");
  CHECK(report.lanes[1].name == "none");
  CHECK(report.lanes[1].counts.truePositives == 2);
}

TEST_CASE("eval report: tokens on a lane without a price make the cost unknown, not zero") {
  auto report = buildReport({twoBugs()}, {runOf(0, false)}, {{"m", std::nullopt}}, 1);
  CHECK_FALSE(report.steps[0].costUsd.has_value());
  CHECK(report.steps[1].costUsd == std::optional<double>(0.0));
  CHECK(renderTable(report).find("no price") != std::string::npos);
}

TEST_CASE("eval report: the JSON holds every count and each case run's verdicts") {
  auto report = buildReport({twoBugs()}, {runOf(0, true)}, {{"m", 1.0}}, 1);
  auto v = toJson(report);
  CHECK(v.at("all").at("truePositives").to_number<int>() == 2);
  CHECK(v.at("all").at("falsePositives").to_number<int>() == 1);
  const auto& verdicts = v.at("caseRuns").at(0).at("verdicts").as_array();
  REQUIRE(verdicts.size() == 3);
  CHECK(verdicts[2].at("verdict") == "unexpected");
  CHECK(v.at("steps").at(1).at("precision").at("mean").to_number<double>() == doctest::Approx(1.0));
}

TEST_CASE("eval baseline: a recall or precision that fell beyond the threshold is a regression, within it not") {
  auto before = toJson(buildReport({twoBugs()}, {runOf(0, false)}, {}, 1));
  CaseRun worse = runOf(0, true);
  worse.findings.erase(worse.findings.begin());  // review no longer finds line 3
  auto now = buildReport({twoBugs()}, {worse}, {}, 1);
  auto lines = compareWithBaseline(now, before, 0.05);
  REQUIRE(lines);
  REQUIRE(lines->size() == 4);
  CHECK((*lines)[0] == "all steps: precision 100.0% -> 50.0% (fell by more than 5.0%)");
  CHECK((*lines)[1] == "all steps: recall 100.0% -> 50.0% (fell by more than 5.0%)");
  CHECK((*lines)[2] == "step review: precision 100.0% -> 0.0% (fell by more than 5.0%)");
  CHECK((*lines)[3] == "step review: recall 100.0% -> 0.0% (fell by more than 5.0%)");
  auto same = compareWithBaseline(buildReport({twoBugs()}, {runOf(0, false)}, {}, 1), before, 0.05);
  REQUIRE(same);
  CHECK(same->empty());
  CHECK(compareWithBaseline(now, before, 1.0)->empty());
  CHECK_FALSE(compareWithBaseline(now, boost::json::parse(R"({"steps": []})"), 0.05));
}

TEST_CASE("eval report: --lane keeps only the lane's steps and the expectations they answer for") {
  std::vector<EvalCase> cases = {twoBugs()};
  std::vector<CaseRun> runs = {runOf(0, false)};
  keepLane(cases, runs, "m");
  CHECK(runs[0].steps.size() == 1);
  CHECK(runs[0].findings.size() == 1);
  CHECK(runs[0].stepsMs == 40);
  auto report = buildReport(cases, runs, {}, 1);
  CHECK(report.all.counts.truePositives == 1);
  CHECK(report.all.counts.falseNegatives == 1);  // line 7 names no step: the lane's steps missed it
}
