// The report as Markdown for GITHUB_STEP_SUMMARY (eval/report.h). Case
// names are directory names and findings' messages are what a step (a
// model) wrote: every such string passes the neutraliser every published
// text uses (github/markdown/neutralise.h) before it reaches a cell, so the
// summary shows it and GitHub renders none of it as markup.
#include <sstream>

#include "eval/report.h"
#include "eval/report_cells.h"
#include "github/markdown/markdown_table.h"
#include "github/markdown/neutralise.h"

namespace lw::eval {
namespace {

// The rows of the cases' section, at most: the summary stays small, and
// every run is in the --json report anyway.
constexpr std::size_t kMaxCaseRows = 100;
constexpr std::size_t kMaxCellBytes = 300;

const verify::SecretScanner& tokenShapes() {
  static const verify::SecretScanner scanner;
  return scanner;
}

std::string text(const std::string& s) {
  return github::tableCell(github::neutraliseLine(s, kMaxCellBytes, tokenShapes()));
}

std::string code(const std::string& s) {
  if (s.empty()) return "";
  return "`" + github::tableCell(github::neutraliseIdentifier(tokenShapes().scanAndMask(s).masked, kMaxCellBytes)) +
         "`";
}

std::string name(const std::string& s) { return github::tableCell(github::neutraliseName(s)); }

std::string where(const Finding& f) {
  if (f.path.empty()) return "(whole change)";
  std::string at = f.path;
  if (f.line > 0) at += ":" + std::to_string(f.line);
  if (f.endLine > f.line) at += "-" + std::to_string(f.endLine);
  return at;
}

using Row = std::vector<std::string>;  // case, step, where, rule, what, message

// What went wrong in one case run: its error, the steps that did not
// succeed, the findings that were not true positives, the misses, and what
// the steps set aside.
std::vector<Row> caseRows(const CaseSummary& c, int repeats) {
  const std::string run = code(c.name) + (repeats > 1 ? " #" + std::to_string(c.repeat + 1) : "");
  std::vector<Row> rows;
  if (!c.error.empty()) rows.push_back({run, "", "", "", "not run", text(c.error)});
  for (const std::string& s : c.notSucceeded) rows.push_back({run, "", "", "", "step did not succeed", text(s)});
  for (const FindingVerdict& v : c.verdicts)
    if (v.verdict != Verdict::TruePositive && v.verdict != Verdict::Duplicate)
      rows.push_back({run, name(v.finding.step), code(where(v.finding)), code(v.finding.ruleId),
                      std::string(toString(v.verdict)), text(v.finding.message)});
  for (const std::string& m : c.missed) rows.push_back({run, "", code(m), "", "missed", ""});
  for (const auto& [step, d] : c.dropped) {
    Finding at;
    at.path = d.path, at.line = d.line, at.endLine = d.endLine;
    rows.push_back({run, name(step), code(where(at)), code(d.rule), "dropped by the step", text(d.reason)});
  }
  return rows;
}

std::string casesSection(const EvalReport& report) {
  std::vector<Row> rows;
  for (const CaseSummary& c : report.caseRuns)
    for (Row& r : caseRows(c, report.repeats)) rows.push_back(std::move(r));
  if (rows.empty()) return "";
  std::ostringstream out;
  out << "\n#### Cases with false positives, misses or errors\n\n"
      << "| case | step | where | rule | counted as | message |\n| --- | --- | --- | --- | --- | --- |\n";
  for (std::size_t i = 0; i < rows.size() && i < kMaxCaseRows; ++i) {
    out << "|";
    for (const std::string& cell : rows[i]) out << " " << cell << " |";
    out << "\n";
  }
  if (rows.size() > kMaxCaseRows)
    out << "\n_" << rows.size() - kMaxCaseRows << " more row(s): every case run is in the --json report._\n";
  return out.str();
}

}  // namespace

std::string renderMarkdown(const EvalReport& report) {
  std::ostringstream out;
  out << "### loopwright eval\n\n|";
  for (const std::string& h : tableHeader()) out << " " << h << " |";
  out << "\n|";
  for (std::size_t i = 0; i < tableHeader().size(); ++i) out << (i == 0 ? " --- |" : " ---: |");
  out << "\n";
  auto label = [](const ScopeSummary& s) { return s.kind == "all" ? s.name : s.kind + " " + name(s.name); };
  for (const auto& row : tableRows(report, label)) {
    out << "|";
    for (const std::string& cell : row) out << " " << cell << " |";
    out << "\n";
  }
  out << "\n" << footer(report) << casesSection(report);
  return out.str();
}

std::string renderMarkdown(const std::vector<LaneReport>& reports) {
  std::string out;
  for (const LaneReport& r : reports)
    out += "**Lane " + name(r.lane) + "** (every step that calls a model bound to it)\n\n" + renderMarkdown(r.report) +
           "\n";
  return out;
}

}  // namespace lw::eval
