#include "github/publish/channels/check_plan.h"

#include <boost/json.hpp>

#include "github/markdown/inert_markdown.h"
#include "github/markdown/markdown_table.h"
#include "github/publish/carry_forward.h"
#include "github/publish/channels/review_plan.h"
#include "github/publish/conclusion.h"
#include "github/publish/fingerprint.h"

namespace lw::github {

namespace json = boost::json;

namespace {

std::string_view level(Severity s) {
  switch (s) {
    case Severity::Error: return "failure";
    case Severity::Warning: return "warning";
    case Severity::Notice: return "notice";
  }
  return "warning";
}

// Cuts before a UTF-8 continuation byte never, so the JSON stays valid.
std::size_t utf8Floor(const std::string& s, std::size_t n) {
  if (n >= s.size()) return s.size();
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return n;
}

}  // namespace

std::string truncateWithNote(const std::string& text, std::size_t limit, const std::string& note) {
  if (text.size() <= limit) return text;
  std::size_t keep = note.size() >= limit ? 0 : utf8Floor(text, limit - note.size());
  return text.substr(0, keep) + note.substr(0, limit);
}

namespace {

// The digest of the findings names this exact result: a re-run with the same
// results finds its check run, one with different results makes a new one.
// A non-success verdict is part of the result (a re-run that now covers the
// change must not find the failed check run and stop there); its reasons'
// texts are not, they name per-run paths.
std::string externalIdFor(const StageResult& stage, const std::vector<Finding>& ranked, const Verdict& verdict,
                          const std::string& headSha) {
  std::string digestInput;
  for (const Finding& f : ranked) digestInput += fingerprint(f);
  for (const CarriedFinding& c : stillCounting(stage)) digestInput += "carried:" + c.fingerprint;
  if (verdict.conclusion != Conclusion::Success) digestInput += "|" + std::string(toString(verdict.conclusion));
  return "loopwright:" + stage.name + ":" + headSha.substr(0, 12) + ":" +
         fingerprint(Finding{.step = {},
                             .ruleId = {},
                             .severity = Severity::Notice,
                             .message = digestInput,
                             .path = {},
                             .line = 0,
                             .endLine = 0,
                             .suggestion = {}});
}

json::object annotation(const Finding& f) {
  int start = f.line > 0 ? f.line : 1;
  int end = f.endLine > start ? f.endLine : start;
  std::string title = f.step.empty() ? f.ruleId : f.step + ": " + f.ruleId;
  return json::object{{"path", f.path},
                      {"start_line", start},
                      {"end_line", end},
                      {"annotation_level", level(f.severity)},
                      {"message", truncateWithNote(f.message, 64 * 1024 - 1, "…")},
                      {"title", truncateWithNote(title, 255, "…")}};
}

// A carried finding is annotated where its comment is now, so the Files
// view still shows it; its text is on its review thread.
json::object carriedAnnotation(const CarriedFinding& c) {
  const int line = c.line > 0 ? c.line : 1;
  return json::object{{"path", c.path},
                      {"start_line", line},
                      {"end_line", line},
                      {"annotation_level", level(c.severity)},
                      {"message",
                       "Reported by an earlier review of this pull request and still open: see its review "
                       "comment."},
                      {"title", truncateWithNote("carried: " + c.step, 255, "…")}};
}

// The findings with a path as annotations, then the carried ones, in
// batches the API accepts.
void addAnnotations(CheckRunPlan& plan, const std::vector<Finding>& ranked,
                    const std::vector<CarriedFinding>& carried) {
  json::array batch;
  auto add = [&](json::object a) {
    batch.push_back(std::move(a));
    ++plan.annotated;
    if (batch.size() == kAnnotationsPerRequest) plan.batches.push_back(std::exchange(batch, {}));
  };
  for (const Finding& f : ranked)
    if (!f.path.empty()) add(annotation(f));  // the Checks API needs a path; the summary lists it
  for (const CarriedFinding& c : carried)
    if (!c.path.empty()) add(carriedAnnotation(c));
  if (!batch.empty()) plan.batches.push_back(std::move(batch));
}

std::string titleFor(const std::vector<Finding>& ranked, const std::vector<CarriedFinding>& carried,
                     const Verdict& verdict) {
  int errors = 0, warnings = 0, notices = 0;
  auto count = [&](Severity s) { (s == Severity::Error ? errors : s == Severity::Warning ? warnings : notices)++; };
  for (const Finding& f : ranked) count(f.severity);
  for (const CarriedFinding& c : carried) count(c.severity);
  std::string title = std::to_string(errors) + " error(s), " + std::to_string(warnings) + " warning(s), " +
                      std::to_string(notices) + " notice(s)";
  // The first reason in the title, so the checks list says why it is red.
  if (verdict.conclusion != Conclusion::Success && !verdict.reasons.empty())
    title = truncateWithNote(title + "; " + verdict.reasons.front(), 255, "…");
  return title;
}

std::string findingsTable(const std::vector<Finding>& ranked) {
  if (ranked.empty()) return "";
  std::string table = "\n| severity | where | rule | step | message |\n| --- | --- | --- | --- | --- |\n";
  for (const Finding& f : ranked) {
    std::string at = f.path.empty() ? "(whole change)" : f.path + (f.line > 0 ? ":" + std::to_string(f.line) : "");
    table += "| " + std::string(toString(f.severity)) + " | `" + tableCell(at) + "` | `" + tableCell(f.ruleId) +
             "` | " + tableCell(f.step) + " | " + tableCell(inertOneLine(f.message)) + " |\n";
  }
  return table;
}

// What earlier reviews left open, and what stopped counting and why.
std::string carriedSection(const StageResult& stage) {
  if (stage.carried.empty()) return "";
  std::string out = "\n#### Carried from earlier reviews\n\n";
  for (const std::string& line : carriedSummary(stage.carried)) out += "- " + line + "\n";
  for (const CarriedFinding& c : stage.carried)
    if (!c.stoppedBecause.empty())
      out += "- no longer counted: `" + tableCell(c.path) + ":" + std::to_string(c.line) + "` (`" + c.step + "`), " +
             c.stoppedBecause + "\n";
  return out;
}

std::string summaryFor(const CheckRunPlan& plan, const StageResult& stage, const std::vector<StepRow>& steps,
                       const std::vector<Finding>& ranked, const Verdict& verdict, FailOn failOn) {
  std::string summary =
      "**" + plan.title + "** in stage `" + stage.name + "` (fail level: " + std::string(toString(failOn)) + ").\n";
  for (const StepRow& s : steps) {
    if (s.stage != stage.name || !s.coverage || s.coverage->incrementalFrom.empty()) continue;
    summary += "\n`" + s.step + "` reviewed only the changes since `" + s.coverage->incrementalFrom.substr(0, 12) +
               "`; findings posted for earlier commits stay open on their review threads.\n";
  }
  summary += carriedSection(stage);
  if (!verdict.reasons.empty()) {
    summary += "\n#### Not a success because\n\n";
    for (const std::string& r : verdict.reasons) summary += "- " + r + "\n";
  }
  summary += findingsTable(ranked);
  return truncateWithNote(summary, kMaxCheckSummaryChars,
                          "\n\n_Truncated: the summary is limited to 65,535 characters; every finding is in the "
                          "annotations and the workflow step summary._\n");
}

}  // namespace

CheckRunPlan planCheckRun(const StageResult& stage, const std::vector<StepRow>& steps, const std::string& headSha,
                          FailOn failOn) {
  CheckRunPlan plan;
  plan.name = "loopwright / " + stage.name;
  std::vector<Finding> ranked = rankFindings(stage.findings);
  const Verdict verdict = judgeStage(stage, steps, failOn);
  const std::vector<CarriedFinding> carried = stillCounting(stage);
  plan.externalId = externalIdFor(stage, ranked, verdict, headSha);
  addAnnotations(plan, ranked, carried);
  plan.conclusion = std::string(toString(verdict.conclusion));
  plan.title = titleFor(ranked, carried, verdict);
  plan.summary = summaryFor(plan, stage, steps, ranked, verdict, failOn);
  return plan;
}

}  // namespace lw::github
