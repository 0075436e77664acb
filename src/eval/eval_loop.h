// `loopwright eval`'s loop: the cases of a directory, each case's change made
// once, then run `repeats` times through a CaseRunner (the effect: `run`'s
// own path, see cli/cmd_eval_runner.h) and timed. Scoring is eval/report.h's.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"
#include "eval/case_git.h"
#include "eval/case_run.h"
#include "eval/eval_case.h"

namespace lw::eval {

struct LoadedCase {
  EvalCase spec;
  std::filesystem::path dir;
};

// Every subdirectory of `dir` holding a case.yaml, by name. All invalid
// cases are reported at once (EVAL_CASE_INVALID, every diagnostic); no case
// at all is USAGE_ERROR.
Result<std::vector<LoadedCase>> loadCases(const std::filesystem::path& dir);

// Runs one case's change as `loopwright run` would and fills `out`'s
// findings, steps and stepsMs, or its error.
class CaseRunner {
 public:
  virtual ~CaseRunner() = default;
  virtual void run(const EvalCase& c, const CaseChange& change, int repeat, CaseRun& out) = 0;
};

// Each case's runs in case order, then repeat order; a case whose change
// cannot be made has one run carrying the error. One progress line per run.
std::vector<CaseRun> runCases(const std::filesystem::path& repo, const std::vector<LoadedCase>& cases, int repeats,
                              CaseRunner& runner, std::ostream& progress);

// The pull_request payload a case is run with (the repository octo/eval,
// pull request 1): its title, base and head.
std::string pullRequestPayload(const EvalCase& c, const CaseChange& change);

}  // namespace lw::eval
