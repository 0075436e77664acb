#include "eval/report_cells.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace lw::eval {

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

namespace {

// "0.83" or "0.83±0.05" over several repeats; "-" when never defined.
std::string statText(const Stat& s) {
  if (s.samples == 0) return "-";
  return s.samples > 1 ? fixed(s.mean, 2) + "±" + fixed(s.stddev, 2) : fixed(s.mean, 2);
}

std::string costText(const std::optional<double>& cost) { return cost ? "$" + fixed(*cost, 4) : "no price"; }

std::vector<std::string> rowCells(const ScopeSummary& s, std::string label) {
  return {std::move(label),
          std::to_string(s.counts.truePositives),
          std::to_string(s.counts.falsePositives),
          std::to_string(s.counts.falseNegatives),
          statText(s.precision),
          statText(s.recall),
          statText(s.f1),
          fixed(s.findingsPerCase, 2),
          std::to_string(s.inputTokens) + "/" + std::to_string(s.outputTokens),
          fixed(static_cast<double>(s.stepMs) / 1000, 2) + " s",
          costText(s.costUsd)};
}

// Display width: "±" is one column but two bytes.
std::size_t width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}

}  // namespace

std::string aligned(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], width(row[i]));
    }
  std::ostringstream out;
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      out << row[i];
      if (i + 1 < row.size()) out << std::string(widths[i] - width(row[i]) + 2, ' ');
    }
    out << "\n";
  }
  return out.str();
}

const std::vector<std::string>& tableHeader() {
  static const std::vector<std::string> header = {
      "scope", "TP", "FP", "FN", "precision", "recall", "F1", "findings/case", "tokens in/out", "time", "cost"};
  return header;
}

std::vector<std::vector<std::string>> tableRows(const EvalReport& r,
                                                const std::function<std::string(const ScopeSummary&)>& label) {
  std::vector<std::vector<std::string>> out;
  for (const ScopeSummary& s : r.steps) out.push_back(rowCells(s, label(s)));
  for (const ScopeSummary& s : r.lanes) out.push_back(rowCells(s, label(s)));
  out.push_back(rowCells(r.all, label(r.all)));
  return out;
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

}  // namespace lw::eval
