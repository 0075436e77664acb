// The numbers `loopwright eval` reports (docs/evals.md, "The report"): per
// step, per lane and for the whole run, true and false positives and
// negatives summed over cases and repeats, precision, recall and F1 as the
// mean and standard deviation over the repeats, findings per case, tokens,
// the steps' own time and the estimated cost. Pure: runs in, numbers out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "eval/case_run.h"
#include "eval/eval_case.h"
#include "eval/matcher.h"
#include "policy/model/taskpack.h"

namespace lw::eval {

// A metric over the repeats in which it was defined.
struct Stat {
  double mean = 0;
  double stddev = 0;  // population standard deviation; 0 with one sample
  int samples = 0;    // 0: never defined (nothing reported, nothing expected)
};

struct ScopeSummary {
  std::string kind;  // "step", "lane" or "all"
  std::string name;
  Counts counts;  // summed over cases and repeats
  Stat precision, recall, f1;
  double findingsPerCase = 0;
  std::int64_t inputTokens = 0;  // summed over cases and repeats
  std::int64_t outputTokens = 0;
  std::int64_t stepMs = 0;  // the steps' own time, summed
  // (input tokens × the lane's input price + output tokens × its output
  // price) / 1e6; nullopt when tokens were spent on a lane without a price.
  std::optional<double> costUsd = 0.0;
  // "step review", "lane primary", "all steps".
  std::string label() const { return kind == "all" ? name : kind + " " + name; }
};

struct CaseSummary {
  std::string name;
  int repeat = 0;
  Counts counts;  // the whole run's
  int filesClipped = 0, filesSkipped = 0;
  bool coverageIncomplete = false;
  std::vector<std::string> notSucceeded;  // "step: outcome" of steps that did not succeed
  std::vector<FindingVerdict> verdicts;   // every distinct finding and what it counted as
  std::vector<std::string> missed;        // "path:first-last" of each expectation no finding answered
  // What the steps set aside rather than report (never scored), with the step.
  std::vector<std::pair<std::string, DroppedFinding>> dropped;
  std::string error;
};

struct EvalReport {
  int cases = 0;
  int repeats = 1;
  std::vector<ScopeSummary> steps;  // in the order they first ran
  std::vector<ScopeSummary> lanes;  // by name; "none" for steps without a lane
  ScopeSummary all;
  std::vector<CaseSummary> caseRuns;
  std::int64_t wallMs = 0;   // eval's own time over every case run
  std::int64_t stepsMs = 0;  // the run records' durations, summed
};

// Each lane's prices per million tokens (policy/model/taskpack.h);
// nullopt for a lane without a price.
using LanePrices = std::map<std::string, std::optional<TokenPrices>>;

// `runs` holds each case's runs (a failed one with its error).
EvalReport buildReport(const std::vector<EvalCase>& cases, const std::vector<CaseRun>& runs, const LanePrices& prices,
                       int repeats);

// The report as `--json` prints it; readable back by compareWithBaseline.
boost::json::value toJson(const EvalReport& report);

// The terminal table, and the Markdown summary for GITHUB_STEP_SUMMARY.
std::string renderTable(const EvalReport& report);
std::string renderMarkdown(const EvalReport& report);

// `--lane A --lane B`: the same cases run with every model step bound to
// each lane (policy/resolve/lane_binding.h), one report per lane, in the
// order asked.
struct LaneReport {
  std::string lane;
  EvalReport report;
};

// {"boundLanes": [{"lane": "a", "report": <toJson of its report>}, …]}.
boost::json::value toJson(const std::vector<LaneReport>& reports);

// The lanes side by side: per scope, each lane's precision, recall, F1,
// tokens and cost; then each lane's footer. And the Markdown: each lane's
// summary under the lane's name.
std::string renderSideBySide(const std::vector<LaneReport>& reports);
std::string renderMarkdown(const std::vector<LaneReport>& reports);

// Precision or recall (means) of the whole run or of a step that fell by
// more than `threshold` since `baseline` (an earlier --json report), one
// line each; empty when none did. OUTPUT_INVALID when `baseline` is not a
// report.
Result<std::vector<std::string>> compareWithBaseline(const EvalReport& now, const boost::json::value& baseline,
                                                     double threshold);

// The same for each lane's report: against the baseline's report of the
// same lane when it was a --lane report (a lane it did not run is not
// compared), else against the baseline itself; each line names the lane.
Result<std::vector<std::string>> compareWithBaseline(const std::vector<LaneReport>& now,
                                                     const boost::json::value& baseline, double threshold);

}  // namespace lw::eval
