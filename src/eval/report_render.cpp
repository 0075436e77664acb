// The report as JSON and as a terminal table (eval/report.h).
#include <cstdio>
#include <sstream>

#include <boost/json.hpp>

#include "eval/report.h"
#include "eval/report_cells.h"

namespace lw::eval {
namespace json = boost::json;
namespace {

json::value statJson(const Stat& s) {
  if (s.samples == 0) return nullptr;
  return json::object{{"mean", s.mean}, {"stddev", s.stddev}, {"samples", s.samples}};
}

json::object countsJson(const Counts& c) {
  return {{"truePositives", c.truePositives},
          {"falsePositives", c.falsePositives},
          {"falseNegatives", c.falseNegatives},
          {"duplicates", c.duplicates},
          {"findings", c.findings}};
}

json::object scopeJson(const ScopeSummary& s) {
  json::object o = countsJson(s.counts);
  o["kind"] = s.kind;
  o["name"] = s.name;
  o["precision"] = statJson(s.precision);
  o["recall"] = statJson(s.recall);
  o["f1"] = statJson(s.f1);
  o["findingsPerCase"] = s.findingsPerCase;
  o["tokens"] = s.inputTokens + s.outputTokens;
  o["inputTokens"] = s.inputTokens;
  o["outputTokens"] = s.outputTokens;
  o["stepMs"] = s.stepMs;
  o["costUsd"] = s.costUsd ? json::value(*s.costUsd) : json::value(nullptr);
  return o;
}

json::object caseJson(const CaseSummary& c) {
  json::object o = countsJson(c.counts);
  o["name"] = c.name;
  o["repeat"] = c.repeat;
  o["filesClipped"] = c.filesClipped;
  o["filesSkipped"] = c.filesSkipped;
  o["coverageComplete"] = !c.coverageIncomplete;
  json::array steps;
  for (const std::string& s : c.notSucceeded) steps.push_back(json::value(s));
  o["stepsNotSucceeded"] = std::move(steps);
  json::array verdicts, missed;
  for (const FindingVerdict& v : c.verdicts)
    verdicts.push_back(json::object{{"step", v.finding.step},
                                    {"path", v.finding.path},
                                    {"line", v.finding.line},
                                    {"endLine", v.finding.endLine},
                                    {"rule", v.finding.ruleId},
                                    {"message", v.finding.message},
                                    {"verdict", toString(v.verdict)}});
  for (const std::string& m : c.missed) missed.push_back(json::value(m));
  o["verdicts"] = std::move(verdicts);
  o["missed"] = std::move(missed);
  json::array dropped;
  for (const auto& [step, d] : c.dropped)
    dropped.push_back(json::object{{"step", step},
                                   {"path", d.path},
                                   {"line", d.line},
                                   {"endLine", d.endLine},
                                   {"rule", d.rule},
                                   {"reason", d.reason}});
  o["dropped"] = std::move(dropped);
  if (!c.error.empty()) o["error"] = c.error;
  return o;
}

}  // namespace

json::value toJson(const EvalReport& report) {
  json::array steps, lanes, cases;
  for (const ScopeSummary& s : report.steps) steps.push_back(scopeJson(s));
  for (const ScopeSummary& s : report.lanes) lanes.push_back(scopeJson(s));
  for (const CaseSummary& c : report.caseRuns) cases.push_back(caseJson(c));
  return json::object{{"cases", report.cases},     {"repeats", report.repeats},    {"steps", std::move(steps)},
                      {"lanes", std::move(lanes)}, {"all", scopeJson(report.all)}, {"caseRuns", std::move(cases)},
                      {"wallMs", report.wallMs},   {"stepsMs", report.stepsMs}};
}

std::string renderTable(const EvalReport& report) {
  auto rows = tableRows(report, [](const ScopeSummary& s) { return s.label(); });
  rows.insert(rows.begin(), tableHeader());
  return aligned(rows) + footer(report);
}

}  // namespace lw::eval
