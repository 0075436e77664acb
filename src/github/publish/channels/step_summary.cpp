// The Markdown appended to GITHUB_STEP_SUMMARY: the step table, what each
// channel did, and every finding, so that whatever GitHub refused is still
// on the run page. Bounded by GitHub's 1 MiB per step.
#include <cstdio>

#include <boost/json.hpp>

#include "github/actions/actions_files.h"
#include "github/markdown/markdown_table.h"
#include "github/publish/channels/channels.h"
#include "github/publish/channels/check_plan.h"
#include "github/publish/channels/coverage_section.h"
#include "github/publish/conclusion.h"

namespace lw::github {

namespace {

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string duration(std::int64_t ms) {
  if (ms < 1000) return std::to_string(ms) + " ms";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ms) / 1000.0);
  return buf;
}

// Where an unfinished publication is and what becomes of it. A refusal
// (a fork's read-only token) is final: nothing is kept to resume, and the
// runner's temporary directory is gone after the job anyway.
std::string keptNote(const PublicationOutcome& o, const std::string& file) {
  using Kept = PublicationOutcome::Kept;
  if (o.kept == Kept::Pending)
    return "The publication did not finish (" + tableCell(o.lastError) + "); it is kept in `" + file +
           "` and the next run, or `loopwright publish --resume`, finishes it.\n\n";
  if (o.kept == Kept::Parked)
    return "The publication failed " + std::to_string(o.attempts) + " times and is parked in `" + file +
           "`; it is not retried. Last error: " + tableCell(o.lastError) + "\n\n";
  if (o.permissionDenied)
    return "GitHub refused some of this token's writes (a pull request from a fork gets a read-only token): "
           "the findings are in the annotations and in this summary.\n\n";
  return "";
}

// The heading, what was reviewed, and why the run is not a success.
std::string headingMarkdown(const PublicationRequest& req) {
  std::string md =
      "## loopwright: " + (req.conclusion ? std::string(toString(*req.conclusion)) : std::string("results")) + "\n\n";
  md += req.repo.fullName() + (req.isPullRequest ? " pull request #" : " issue #") + std::to_string(req.number);
  if (!req.headSha.empty()) md += " at `" + req.headSha.substr(0, 12) + "`";
  md += "\n\n";
  if (Verdict v = judgeRun(req); !v.reasons.empty()) {
    md += "Not a success because:\n\n";
    for (const std::string& r : v.reasons) md += "- " + tableCell(r) + "\n";
    md += "\n";
  }
  return md;
}

std::string stepTable(const std::vector<StepRow>& steps) {
  if (steps.empty()) return "";
  std::string md =
      "| stage | step | backend | capabilities | duration | exit | guardrail events | status |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const StepRow& s : steps) {
    md += "| " + tableCell(s.stage) + " | " + tableCell(s.step) + " | " + tableCell(s.backend) + " | " +
          tableCell(join(s.capabilities, ", ")) + " | " + duration(s.durationMs) + " | " + std::to_string(s.exitCode) +
          " | " + tableCell(join(s.guardrailEvents, "; ")) + " | " +
          (s.blocked ? "blocked: " + tableCell(s.blocker) : std::string("ok")) + " |\n";
  }
  return md + "\n";
}

// What each channel did, and what GitHub did not take.
std::string publicationMarkdown(const PublicationOutcome& outcome, const std::string& outboxFile) {
  std::string md;
  if (!outcome.channels.empty()) {
    md += "| publication | result | detail |\n| --- | --- | --- |\n";
    for (const ChannelOutcome& c : outcome.channels)
      md += "| " + tableCell(c.channel) + " | " + std::string(toString(c.state)) + " | " + tableCell(c.detail) + " |\n";
    md += "\n";
  }
  if (!outcome.annotations.empty() || !outcome.summaryOnly.empty()) {
    md += "**" + std::to_string(outcome.annotations.size() + outcome.summaryOnly.size()) +
          " finding(s) could not be posted to GitHub**: " + std::to_string(outcome.annotations.size()) +
          " are shown as annotations, all are in the table below.\n\n";
  }
  return md + keptNote(outcome, outboxFile);
}

std::string triageMarkdown(const std::vector<TriageResult>& triage) {
  std::string md;
  for (const TriageResult& t : triage) {
    md += "### Triage (" + tableCell(t.step) + ")\n\n";
    if (!t.labels.empty()) md += "Labels: " + tableCell(join(t.labels, ", ")) + "\n\n";
    for (const auto& d : t.duplicates)
      md += "- possible duplicate of #" + std::to_string(d.number) + ": " + tableCell(d.reason) + "\n";
    if (!t.duplicates.empty()) md += "\n";
  }
  return md;
}

// Appends the findings table to `md` while the whole summary (with `used`
// bytes already in the file) stays under GitHub's 1 MiB.
void appendFindings(std::string& md, const std::vector<Finding>& findings, const std::string& outboxFile,
                    std::size_t used) {
  md += "### Findings (" + std::to_string(findings.size()) + ")\n\n";
  if (findings.empty()) return;
  md += "| severity | where | rule | step | message |\n| --- | --- | --- | --- | --- |\n";
  const std::string note =
      "\n_The step summary is limited to 1 MiB; the remaining findings are in " + outboxFile + "._\n";
  std::size_t budget =
      kMaxStepSummaryBytes > used + note.size() + 64 ? kMaxStepSummaryBytes - used - note.size() - 64 : 0;
  std::size_t shown = 0;
  for (const Finding& f : findings) {
    std::string where = f.path.empty() ? "(whole change)" : f.path + (f.line > 0 ? ":" + std::to_string(f.line) : "");
    std::string row = "| " + std::string(toString(f.severity)) + " | `" + tableCell(where) + "` | `" +
                      tableCell(f.ruleId) + "` | " + tableCell(f.step) + " | " + tableCell(f.message) + " |\n";
    if (md.size() + row.size() > budget) break;
    md += row;
    ++shown;
  }
  if (shown < findings.size())
    md += "\n_" + std::to_string(findings.size() - shown) +
          " more finding(s) did not fit: the step summary is "
          "limited to 1 MiB; all are in `" +
          outboxFile + "`._\n";
}

}  // namespace

std::string renderStepSummary(const PublicationRequest& req, const PublicationOutcome& outcome,
                              const std::string& outboxFile, std::size_t used) {
  std::string md = headingMarkdown(req);
  md += stepTable(req.steps);
  md += coverageMarkdown(req.steps);
  md += publicationMarkdown(outcome, outboxFile);
  md += triageMarkdown(req.triage);
  appendFindings(md, allFindings(req), outboxFile, used);
  return md;
}

}  // namespace lw::github
