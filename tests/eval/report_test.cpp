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
// `noisy`), `security` finds line 7; review spent 800 input and 200 output
// tokens on lane m.
CaseRun runOf(int repeat, bool noisy) {
  CaseRun r;
  r.caseName = "two";
  r.repeat = repeat;
  r.diff = {{"a.py", {{1, 10}}}};
  r.findings = {finding("review", 3, "x"), finding("security", 7, "y")};
  if (noisy) r.findings.push_back(finding("review", 9, "z"));
  r.steps = {{"review", "m", "passed", true, 800, 200, 40}, {"security", "", "passed", true, 0, 0, 10}};
  r.stepsMs = 50;
  r.wallMs = 60;
  return r;
}

}  // namespace

TEST_CASE("eval report: counts are summed, metrics averaged over repeats with their spread, cost from the price") {
  auto report = buildReport({twoBugs()}, {runOf(0, false), runOf(1, true)}, {{"m", TokenPrices{2.0, 2.0}}}, 2);
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
  CHECK(review.inputTokens == 1600);
  CHECK(review.outputTokens == 400);
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
  auto report = buildReport({twoBugs()}, {runOf(0, true)}, {{"m", TokenPrices{1.0, 1.0}}}, 1);
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

TEST_CASE("eval report: input and output tokens are priced apart and the JSON carries the split") {
  auto report = buildReport({twoBugs()}, {runOf(0, false)}, {{"m", TokenPrices{0.40, 1.60}}}, 1);
  const ScopeSummary& review = report.steps[0];
  REQUIRE(review.costUsd);
  // 800 input tokens at $0.40 and 200 output tokens at $1.60 per million.
  CHECK(*review.costUsd == doctest::Approx((800 * 0.40 + 200 * 1.60) / 1e6));
  auto v = toJson(report);
  const auto& step = v.at("steps").at(0);
  CHECK(step.at("inputTokens").to_number<int>() == 800);
  CHECK(step.at("outputTokens").to_number<int>() == 200);
  CHECK(step.at("tokens").to_number<int>() == 1000);
  CHECK(renderTable(report).find("800/200") != std::string::npos);
}

TEST_CASE("eval baseline: a report written before tokens were split still serves as the baseline") {
  // The shape `loopwright eval --json` wrote with one token count and one price.
  const auto older = boost::json::parse(R"({"cases": 1, "repeats": 1,
    "steps": [{"kind": "step", "name": "review", "truePositives": 1, "falsePositives": 0, "falseNegatives": 0,
               "duplicates": 0, "findings": 1, "precision": {"mean": 1.0, "stddev": 0, "samples": 1},
               "recall": {"mean": 1.0, "stddev": 0, "samples": 1}, "f1": {"mean": 1.0, "stddev": 0, "samples": 1},
               "findingsPerCase": 1.0, "tokens": 1000, "stepMs": 40, "costUsd": 0.0004}],
    "lanes": [], "all": {"kind": "all", "name": "all steps", "truePositives": 2, "falsePositives": 0,
               "falseNegatives": 0, "duplicates": 0, "findings": 2,
               "precision": {"mean": 1.0, "stddev": 0, "samples": 1}, "recall": {"mean": 1.0, "stddev": 0, "samples": 1},
               "f1": {"mean": 1.0, "stddev": 0, "samples": 1}, "findingsPerCase": 2.0, "tokens": 1000, "stepMs": 50,
               "costUsd": 0.0004},
    "caseRuns": [], "wallMs": 60, "stepsMs": 50})");
  auto same = compareWithBaseline(buildReport({twoBugs()}, {runOf(0, false)}, {}, 1), older, 0.05);
  REQUIRE(same);
  CHECK(same->empty());
  CaseRun worse = runOf(0, false);
  worse.findings.erase(worse.findings.begin());
  auto fell = compareWithBaseline(buildReport({twoBugs()}, {worse}, {}, 1), older, 0.05);
  REQUIRE(fell);
  CHECK(fell->size() == 3);  // the whole run's recall, the review's precision (now undefined) and recall
}

TEST_CASE("eval report: lanes side by side and each lane against the baseline's same lane") {
  CaseRun onA = runOf(0, false), onB = runOf(0, false);
  onB.steps[0].lane = "b";
  onB.findings.erase(onB.findings.begin());  // on lane b the review misses line 3
  std::vector<LaneReport> now = {{"a", buildReport({twoBugs()}, {onA}, {}, 1)},
                                 {"b", buildReport({twoBugs()}, {onB}, {}, 1)}};
  const std::string table = renderSideBySide(now);
  CAPTURE(table);
  CHECK(table.starts_with("scope "));
  CHECK(table.find("a: precision") != std::string::npos);
  CHECK(table.find("b: recall") != std::string::npos);
  CHECK(table.find("lane a: 1 case(s)") != std::string::npos);
  auto json = toJson(now);
  REQUIRE(json.at("boundLanes").as_array().size() == 2);
  CHECK(json.at("boundLanes").at(1).at("lane") == "b");
  // Both lanes against a baseline where both found everything: only b fell.
  std::vector<LaneReport> before = {{"a", now[0].report}, {"b", now[0].report}};
  auto lines = compareWithBaseline(now, toJson(before), 0.05);
  REQUIRE(lines);
  REQUIRE(lines->size() == 3);
  CHECK((*lines)[0] == "lane b: all steps: recall 100.0% -> 50.0% (fell by more than 5.0%)");
  CHECK((*lines)[1] == "lane b: step review: precision 100.0% -> 0.0% (fell by more than 5.0%)");
  CHECK((*lines)[2] == "lane b: step review: recall 100.0% -> 0.0% (fell by more than 5.0%)");
  // A baseline without --lane is compared with every lane.
  auto flat = compareWithBaseline(now, toJson(now[0].report), 0.05);
  REQUIRE(flat);
  CHECK(flat->size() == 3);
}
