// Honest matching of a run's findings against a case's answers (docs/evals.md,
// "Matching"). Pure: the findings, the case's patterns and the lines the
// change touched in, verdicts and counts out.
//   1. Duplicates (same step, path, lines and rule) count once.
//   2. A finding a must-not entry matches is a false positive.
//   3. A finding outside the diff is never a true positive: a false positive.
//   4. A finding on an expected path whose range meets the expected range
//      widened by the tolerance, with the rule or tag and the step asked for,
//      answers that expectation: a true positive; a second finding answering
//      an expectation already answered is a duplicate and counts once.
//   5. Any other finding is a false positive; expectations left unanswered
//      are false negatives.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/finding.h"
#include "eval/eval_case.h"

namespace lw::eval {

// The new-side lines each path's hunks cover (added lines and their
// context): where a finding can be about the change.
using DiffLines = std::map<std::string, std::vector<LineRange>>;

enum class Verdict { TruePositive, MustNot, OutsideDiff, Unexpected, Duplicate };
std::string_view toString(Verdict v);

struct FindingVerdict {
  Finding finding;
  Verdict verdict = Verdict::Unexpected;
  int expectation = -1;  // the index answered (TruePositive, Duplicate)
};

struct Counts {
  int truePositives = 0;
  int falsePositives = 0;
  int falseNegatives = 0;
  int duplicates = 0;
  int findings = 0;  // after duplicates were removed
  Counts& operator+=(const Counts& o);
};

// Precision, recall and F1; nullopt when undefined (nothing reported,
// nothing expected, or both 0).
std::optional<double> precision(const Counts& c);
std::optional<double> recall(const Counts& c);
std::optional<double> f1(const Counts& c);

// Which findings and expectations a score is about: the findings of
// `steps`, the expectations that apply to them (those naming one of the
// steps or none), and, for false negatives, only those naming one of them,
// unless `allSteps` (the whole run: every expectation).
struct Scope {
  std::set<std::string> steps;
  bool allSteps = false;
};

struct CaseScore {
  std::vector<FindingVerdict> verdicts;
  std::vector<int> missed;  // indexes of expectations no finding answered
  Counts counts;
};

// True when `f` is what `p` describes, with `tolerance` lines either side.
bool matches(const FindingPattern& p, const Finding& f, int tolerance);

// True when some line of the finding's range is in one of its path's hunks.
bool insideDiff(const Finding& f, const DiffLines& diff);

// Scores `findings` against `c`'s expectations within `scope`.
CaseScore score(const std::vector<Finding>& findings, const EvalCase& c, const DiffLines& diff, const Scope& scope);

}  // namespace lw::eval
