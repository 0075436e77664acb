#include "eval/report.h"

#include <algorithm>
#include <cmath>

namespace lw::eval {
namespace {

Stat statOf(const std::vector<double>& values) {
  Stat s;
  s.samples = static_cast<int>(values.size());
  if (values.empty()) return s;
  for (double v : values) s.mean += v;
  s.mean /= static_cast<double>(values.size());
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(squares / static_cast<double>(values.size()));
  return s;
}

const EvalCase* caseNamed(const std::vector<EvalCase>& cases, const std::string& name) {
  for (const EvalCase& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

void addCost(ScopeSummary& s, const StepRun& st, const std::optional<TokenPrices>& price) {
  if (st.inputTokens + st.outputTokens == 0 || !s.costUsd) return;
  if (!price) {
    s.costUsd.reset();
    return;
  }
  *s.costUsd += (static_cast<double>(st.inputTokens) * price->inputPerMTok +
                 static_cast<double>(st.outputTokens) * price->outputPerMTok) /
                1e6;
}

// The scores of `scope` over every case and repeat, the metrics' spread
// over the repeats, and the cost of the steps in `scope`.
ScopeSummary summarise(std::string kind, std::string name, const Scope& scope, const std::vector<EvalCase>& cases,
                       const std::vector<CaseRun>& runs, const LanePrices& prices, int repeats) {
  ScopeSummary s;
  s.kind = std::move(kind);
  s.name = std::move(name);
  std::vector<Counts> perRepeat(static_cast<std::size_t>(std::max(1, repeats)));
  int caseRuns = 0;
  for (const CaseRun& run : runs) {
    const EvalCase* c = caseNamed(cases, run.caseName);
    if (!run.error.empty() || c == nullptr) continue;
    ++caseRuns;
    Counts counts = score(run.findings, *c, run.diff, scope).counts;
    s.counts += counts;
    perRepeat[static_cast<std::size_t>(run.repeat) % perRepeat.size()] += counts;
    for (const StepRun& st : run.steps) {
      if (!scope.allSteps && !scope.steps.contains(st.step)) continue;
      s.inputTokens += st.inputTokens;
      s.outputTokens += st.outputTokens;
      s.stepMs += st.durationMs;
      auto price = prices.find(st.lane);
      addCost(s, st, price == prices.end() ? std::nullopt : price->second);
    }
  }
  std::vector<double> p, r, f;
  for (const Counts& c : perRepeat) {
    if (auto v = precision(c)) p.push_back(*v);
    if (auto v = recall(c)) r.push_back(*v);
    if (auto v = f1(c)) f.push_back(*v);
  }
  s.precision = statOf(p), s.recall = statOf(r), s.f1 = statOf(f);
  s.findingsPerCase = caseRuns == 0 ? 0 : static_cast<double>(s.counts.findings) / caseRuns;
  return s;
}

CaseSummary caseSummaryOf(const CaseRun& run, const EvalCase* c) {
  CaseSummary cs;
  cs.name = run.caseName;
  cs.repeat = run.repeat;
  cs.error = run.error;
  if (!run.error.empty() || c == nullptr) return cs;
  CaseScore scored = score(run.findings, *c, run.diff, Scope{{}, true});
  cs.counts = scored.counts;
  cs.verdicts = std::move(scored.verdicts);
  for (int i : scored.missed) {
    const FindingPattern& p = c->expect[static_cast<std::size_t>(i)];
    cs.missed.push_back(p.path + ":" + std::to_string(p.lines.first) + "-" + std::to_string(p.lines.last));
  }
  for (const StepRun& st : run.steps) {
    cs.filesClipped += st.filesClipped;
    cs.filesSkipped += st.filesSkipped;
    cs.coverageIncomplete = cs.coverageIncomplete || st.coverageIncomplete;
    if (!st.passed) cs.notSucceeded.push_back(st.step + ": " + st.outcome);
    for (const DroppedFinding& d : st.dropped) cs.dropped.emplace_back(st.step, d);
  }
  return cs;
}

// Each step that ran, in first-run order, and the lanes they ran on.
void collectSteps(const std::vector<CaseRun>& runs, std::vector<std::string>& steps,
                  std::map<std::string, std::set<std::string>>& lanes) {
  for (const CaseRun& run : runs)
    for (const StepRun& st : run.steps) {
      if (std::find(steps.begin(), steps.end(), st.step) == steps.end()) steps.push_back(st.step);
      lanes[st.lane.empty() ? "none" : st.lane].insert(st.step);
    }
}

}  // namespace

EvalReport buildReport(const std::vector<EvalCase>& cases, const std::vector<CaseRun>& runs, const LanePrices& prices,
                       int repeats) {
  EvalReport report;
  report.cases = static_cast<int>(cases.size());
  report.repeats = repeats;
  std::vector<std::string> steps;
  std::map<std::string, std::set<std::string>> lanes;
  collectSteps(runs, steps, lanes);
  for (const std::string& step : steps)
    report.steps.push_back(summarise("step", step, Scope{{step}, false}, cases, runs, prices, repeats));
  for (const auto& [lane, laneSteps] : lanes)
    report.lanes.push_back(summarise("lane", lane, Scope{laneSteps, false}, cases, runs, prices, repeats));
  report.all = summarise("all", "all steps", Scope{{}, true}, cases, runs, prices, repeats);
  for (const CaseRun& run : runs) {
    report.caseRuns.push_back(caseSummaryOf(run, caseNamed(cases, run.caseName)));
    report.wallMs += run.wallMs;
    report.stepsMs += run.stepsMs;
  }
  return report;
}

}  // namespace lw::eval
