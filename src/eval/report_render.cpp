// The report as JSON, as a terminal table and as Markdown (eval/report.h).
#include <cstdio>
#include <sstream>

#include <boost/json.hpp>

#include "eval/report.h"

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
  o["tokens"] = s.tokens;
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
                                    {"verdict", toString(v.verdict)}});
  for (const std::string& m : c.missed) missed.push_back(json::value(m));
  o["verdicts"] = std::move(verdicts);
  o["missed"] = std::move(missed);
  if (!c.error.empty()) o["error"] = c.error;
  return o;
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// "0.83" or "0.83±0.05" over several repeats; "-" when never defined.
std::string statText(const Stat& s) {
  if (s.samples == 0) return "-";
  return s.samples > 1 ? fixed(s.mean, 2) + "±" + fixed(s.stddev, 2) : fixed(s.mean, 2);
}

std::string costText(const std::optional<double>& cost) { return cost ? "$" + fixed(*cost, 4) : "no price"; }

std::vector<std::string> rowCells(const ScopeSummary& s) {
  return {s.label(),
          std::to_string(s.counts.truePositives),
          std::to_string(s.counts.falsePositives),
          std::to_string(s.counts.falseNegatives),
          statText(s.precision),
          statText(s.recall),
          statText(s.f1),
          fixed(s.findingsPerCase, 2),
          std::to_string(s.tokens),
          fixed(static_cast<double>(s.stepMs) / 1000, 2) + " s",
          costText(s.costUsd)};
}

const std::vector<std::string> kHeader = {"scope",         "TP",     "FP",   "FN",  "precision", "recall", "F1",
                                          "findings/case", "tokens", "time", "cost"};

std::vector<std::vector<std::string>> rows(const EvalReport& r) {
  std::vector<std::vector<std::string>> out;
  for (const ScopeSummary& s : r.steps) out.push_back(rowCells(s));
  for (const ScopeSummary& s : r.lanes) out.push_back(rowCells(s));
  out.push_back(rowCells(r.all));
  return out;
}

// Display width: "±" is one column but two bytes.
std::size_t width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}

std::string footer(const EvalReport& r) {
  std::ostringstream out;
  int failed = 0, incomplete = 0;
  for (const CaseSummary& c : r.caseRuns) {
    failed += !c.error.empty();
    incomplete += c.coverageIncomplete;
  }
  out << r.cases << " case(s) x " << r.repeats << " repeat(s); " << failed << " could not run; " << incomplete
      << " reviewed incompletely (clipped or skipped files). Steps' time " << fixed(r.stepsMs / 1000.0, 2)
      << " s, eval's " << fixed(r.wallMs / 1000.0, 2) << " s.\n";
  return out.str();
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
  auto body = rows(report);
  std::vector<std::size_t> widths;
  for (const std::string& h : kHeader) widths.push_back(width(h));
  for (const auto& row : body)
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], width(row[i]));
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      out << cells[i];
      if (i + 1 < cells.size()) out << std::string(widths[i] - width(cells[i]) + 2, ' ');
    }
    out << "\n";
  };
  line(kHeader);
  for (const auto& row : body) line(row);
  out << footer(report);
  return out.str();
}

std::string renderMarkdown(const EvalReport& report) {
  std::ostringstream out;
  out << "### loopwright eval\n\n|";
  for (const std::string& h : kHeader) out << " " << h << " |";
  out << "\n|";
  for (std::size_t i = 0; i < kHeader.size(); ++i) out << (i == 0 ? " --- |" : " ---: |");
  out << "\n";
  for (const auto& row : rows(report)) {
    out << "|";
    for (const std::string& cell : row) out << " " << cell << " |";
    out << "\n";
  }
  out << "\n" << footer(report);
  return out.str();
}

}  // namespace lw::eval
