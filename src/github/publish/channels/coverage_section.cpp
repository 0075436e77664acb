#include "github/publish/channels/coverage_section.h"

#include "core/step_label.h"
#include "github/markdown/markdown_table.h"

namespace lw::github {

namespace {

std::string stepCoverage(const StepRow& s) {
  const Coverage& c = *s.coverage;
  std::string md = "<details><summary><code>" + tableCell(stepLabel(s.stage, s.step)) +
                   "</code>: " + tableCell(coverageCounts(c)) + "</summary>\n\n";
  if (c.files.empty()) return md + "No files listed.\n\n</details>\n\n";
  md += "| file | status | reason |\n| --- | --- | --- |\n";
  std::size_t shown = 0;
  for (const FileCoverage& f : c.files) {
    if (shown == kCoverageRowsPerStep) break;
    md += "| `" + tableCell(f.path) + "` | " + std::string(toString(f.status)) + " | " + tableCell(f.reason) + " |\n";
    ++shown;
  }
  if (shown < c.files.size())
    md += "\n_" + std::to_string(c.files.size() - shown) + " more file(s); every file is in run.json._\n";
  return md + "\n</details>\n\n";
}

}  // namespace

std::string coverageCounts(const Coverage& c) {
  std::size_t counts[3] = {0, 0, 0};
  for (const FileCoverage& f : c.files) ++counts[static_cast<int>(f.status)];
  std::string text = std::to_string(counts[0]) + " reviewed, " + std::to_string(counts[1]) + " clipped, " +
                     std::to_string(counts[2]) + " skipped";
  if (!c.incrementalFrom.empty()) text += " (since " + c.incrementalFrom.substr(0, 12) + ")";
  return text + (c.complete ? "; complete" : "; incomplete: " + (c.reason.empty() ? "no reason given" : c.reason));
}

std::string coverageMarkdown(const std::vector<StepRow>& steps) {
  std::string md;
  std::int64_t tokens = 0;
  for (const StepRow& s : steps) {
    tokens += s.tokensUsed;
    if (s.coverage) md += stepCoverage(s);
  }
  if (!md.empty()) md = "### Coverage\n\n" + md;
  if (tokens > 0) md += "Model tokens used: " + std::to_string(tokens) + "\n\n";
  return md;
}

}  // namespace lw::github
