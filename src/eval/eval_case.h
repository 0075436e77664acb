// An eval case (docs/evals.md): a change with known answers. Its base is a
// commit of the repository under evaluation, its head another commit or a
// patch on the base; the event it is run as; the findings a good review
// reports (a path, a line range, a rule or a free-text tag) and those it must
// not (known false positives, clean hunks). Parsing only: no git here.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/result.h"

namespace lw::eval {

// A line range of the head's version of a file; 0..0 is the whole file.
struct LineRange {
  int first = 0;
  int last = 0;
  bool wholeFile() const { return first == 0; }
};

// What a finding must look like to answer an expectation (or to be refused
// by a must-not entry). Empty rule, tag and step match any finding.
struct FindingPattern {
  std::string path;
  LineRange lines;
  std::string rule;  // equal to the finding's rule id, or to its last '/'-separated part
  std::string tag;   // case-insensitive text in the rule id or the message
  std::string step;  // the reporting step's name; empty: any step
  Location location;
};

struct EvalCase {
  std::string name;  // the case directory's name
  std::string description;
  std::string base = "HEAD";  // a revision of the repository under evaluation
  std::string head;           // a revision; exactly one of head and patch
  std::string patchFile;      // relative to the case directory
  std::string event = "pull_request.opened";
  std::string title;  // the pull request's title in the event
  int tolerance = 2;  // lines either side of an expected range that still match
  std::vector<FindingPattern> expect;
  std::vector<FindingPattern> mustNot;
  std::string file;  // the case.yaml it was read from
};

// The largest case.yaml read (the taskpack's own bound).
inline constexpr std::size_t kMaxCaseBytes = 64 * 1024;

// Parses case.yaml's text; `file` names it in diagnostics and `name` is the
// case's. EVAL_CASE_INVALID with every problem as a diagnostic
// (file:line:col and the YAML path) when anything is wrong.
Result<EvalCase> parseEvalCase(std::string_view text, const std::string& file, const std::string& name);

// Reads <dir>/case.yaml (IO_ERROR when unreadable) and parses it.
Result<EvalCase> loadEvalCase(const std::string& dir);

}  // namespace lw::eval
