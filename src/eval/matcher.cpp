#include "eval/matcher.h"

#include <algorithm>
#include <tuple>

#include "core/ascii.h"

namespace lw::eval {
namespace {

// The finding's lines; a whole-file finding (line 0) has none.
LineRange rangeOf(const Finding& f) { return {f.line, f.endLine > f.line ? f.endLine : f.line}; }

bool overlaps(LineRange a, LineRange b) { return a.first <= b.last && b.first <= a.last; }

bool containsFolded(const std::string& haystack, const std::string& needle) {
  return asciiLowered(haystack).find(asciiLowered(needle)) != std::string::npos;
}

bool ruleMatches(const std::string& wanted, const std::string& ruleId) {
  if (wanted.empty() || wanted == ruleId) return true;
  auto slash = ruleId.rfind('/');
  return slash != std::string::npos && ruleId.compare(slash + 1, std::string::npos, wanted) == 0;
}

bool inScope(const Scope& scope, const std::string& step) { return scope.allSteps || scope.steps.contains(step); }

// An expectation applies to the scope's findings when it names none of the
// steps or one of them; it is missed (a false negative) in the scope only
// when the scope is the whole run or it names one of the scope's steps.
bool applies(const Scope& scope, const FindingPattern& p) { return p.step.empty() || inScope(scope, p.step); }
bool countsAsMissed(const Scope& scope, const FindingPattern& p) {
  return scope.allSteps || (!p.step.empty() && scope.steps.contains(p.step));
}

// The scope's findings with duplicates removed, in their order.
std::vector<Finding> distinctFindings(const std::vector<Finding>& findings, const Scope& scope, int& duplicates) {
  std::set<std::tuple<std::string, std::string, int, int, std::string>> seen;
  std::vector<Finding> out;
  for (const Finding& f : findings) {
    if (!inScope(scope, f.step)) continue;
    LineRange r = rangeOf(f);
    if (!seen.insert({f.step, f.path, r.first, r.last, f.ruleId}).second) {
      ++duplicates;
      continue;
    }
    out.push_back(f);
  }
  return out;
}

// Rules 2-5 of the header for one finding; `answered` marks expectations.
FindingVerdict judge(const Finding& f, const EvalCase& c, const DiffLines& diff, const Scope& scope,
                     std::vector<bool>& answered) {
  FindingVerdict v{f, Verdict::Unexpected, -1};
  for (const FindingPattern& p : c.mustNot)
    if ((p.step.empty() || p.step == f.step) && matches(p, f, c.tolerance)) return v.verdict = Verdict::MustNot, v;
  if (!insideDiff(f, diff)) return v.verdict = Verdict::OutsideDiff, v;
  int duplicateOf = -1;
  for (std::size_t i = 0; i < c.expect.size(); ++i) {
    const FindingPattern& p = c.expect[i];
    if (!applies(scope, p) || !matches(p, f, c.tolerance)) continue;
    if (!answered[i]) {
      answered[i] = true;
      v.verdict = Verdict::TruePositive;
      v.expectation = static_cast<int>(i);
      return v;
    }
    if (duplicateOf < 0) duplicateOf = static_cast<int>(i);
  }
  if (duplicateOf >= 0) v.verdict = Verdict::Duplicate, v.expectation = duplicateOf;
  return v;
}

void tally(Counts& counts, Verdict v) {
  switch (v) {
    case Verdict::TruePositive: ++counts.truePositives; break;
    case Verdict::Duplicate: ++counts.duplicates; break;
    case Verdict::MustNot:
    case Verdict::OutsideDiff:
    case Verdict::Unexpected: ++counts.falsePositives; break;
  }
}

std::optional<double> ratio(int num, int den) {
  if (den == 0) return std::nullopt;
  return static_cast<double>(num) / den;
}

}  // namespace

std::string_view toString(Verdict v) {
  switch (v) {
    case Verdict::TruePositive: return "true-positive";
    case Verdict::MustNot: return "must-not";
    case Verdict::OutsideDiff: return "outside-diff";
    case Verdict::Unexpected: return "unexpected";
    case Verdict::Duplicate: return "duplicate";
  }
  return "unexpected";
}

Counts& Counts::operator+=(const Counts& o) {
  truePositives += o.truePositives;
  falsePositives += o.falsePositives;
  falseNegatives += o.falseNegatives;
  duplicates += o.duplicates;
  findings += o.findings;
  return *this;
}

std::optional<double> precision(const Counts& c) { return ratio(c.truePositives, c.truePositives + c.falsePositives); }
std::optional<double> recall(const Counts& c) { return ratio(c.truePositives, c.truePositives + c.falseNegatives); }
std::optional<double> f1(const Counts& c) {
  auto p = precision(c), r = recall(c);
  if (!p || !r || *p + *r == 0) return std::nullopt;
  return 2 * *p * *r / (*p + *r);
}

bool matches(const FindingPattern& p, const Finding& f, int tolerance) {
  if (p.path != f.path) return false;
  if (!p.step.empty() && p.step != f.step) return false;
  if (!ruleMatches(p.rule, f.ruleId)) return false;
  if (!p.tag.empty() && !containsFolded(f.ruleId, p.tag) && !containsFolded(f.message, p.tag)) return false;
  if (p.lines.wholeFile()) return true;
  if (f.line == 0) return false;  // about the file as a whole, not the lines expected
  LineRange widened{std::max(1, p.lines.first - tolerance), p.lines.last + tolerance};
  return overlaps(widened, rangeOf(f));
}

bool insideDiff(const Finding& f, const DiffLines& diff) {
  if (f.path.empty() || f.line == 0) return false;
  auto it = diff.find(f.path);
  if (it == diff.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](LineRange h) { return overlaps(h, rangeOf(f)); });
}

CaseScore score(const std::vector<Finding>& findings, const EvalCase& c, const DiffLines& diff, const Scope& scope) {
  CaseScore s;
  std::vector<Finding> distinct = distinctFindings(findings, scope, s.counts.duplicates);
  s.counts.findings = static_cast<int>(distinct.size());
  std::vector<bool> answered(c.expect.size(), false);
  for (const Finding& f : distinct) {
    s.verdicts.push_back(judge(f, c, diff, scope, answered));
    tally(s.counts, s.verdicts.back().verdict);
  }
  for (std::size_t i = 0; i < c.expect.size(); ++i)
    if (!answered[i] && countsAsMissed(scope, c.expect[i])) s.missed.push_back(static_cast<int>(i));
  s.counts.falseNegatives = static_cast<int>(s.missed.size());
  return s;
}

}  // namespace lw::eval
