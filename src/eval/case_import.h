// `loopwright eval import --commit SHA` (docs/evals.md, "Cases from
// history"): a bug-fixing commit becomes a case. The case's base is the fix,
// its change the fix reverted (the bug put back), and it expects a finding on
// the lines the revert brings back: the lines the fix touched. Pure: the
// fix's facts in, case.yaml's text out.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "eval/eval_case.h"

namespace lw::eval {

struct FixCommit {
  std::string sha;         // full id of the fix
  std::string subject;     // its first line
  std::string revertDiff;  // fix..parent: the change that puts the bug back
};

// The expectations: per file of the revert, the lines each hunk adds (first
// to last), or the hunk's lines when it only deletes. IO_ERROR when the diff
// does not parse; USAGE_ERROR when the fix changed no text line.
Result<std::vector<FindingPattern>> expectationsOf(const std::string& revertDiff);

// case.yaml for `fix`, its patch named `patchFile`.
std::string caseYaml(const FixCommit& fix, const std::vector<FindingPattern>& expect, const std::string& patchFile);

}  // namespace lw::eval
