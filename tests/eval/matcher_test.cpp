#include <doctest/doctest.h>

#include "eval/matcher.h"

using namespace lw;
using namespace lw::eval;

namespace {

Finding finding(std::string step, std::string path, int line, std::string rule, int endLine = 0,
                std::string message = "") {
  Finding f;
  f.step = std::move(step);
  f.path = std::move(path);
  f.line = line;
  f.endLine = endLine;
  f.ruleId = std::move(rule);
  f.message = std::move(message);
  return f;
}

FindingPattern expect(std::string path, int first, int last, std::string rule = "", std::string step = "") {
  FindingPattern p;
  p.path = std::move(path);
  p.lines = {first, last};
  p.rule = std::move(rule);
  p.step = std::move(step);
  return p;
}

// src/app.py lines 10-20 and scripts/x.sh lines 1-5 are the change.
const DiffLines kDiff = {{"src/app.py", {{10, 20}}}, {"scripts/x.sh", {{1, 5}}}};
const Scope kAll{{}, true};

EvalCase oneExpectation(int tolerance = 2) {
  EvalCase c;
  c.tolerance = tolerance;
  c.expect = {expect("src/app.py", 12, 12, "eval-of-input")};
  return c;
}

}  // namespace

TEST_CASE("eval matcher: a finding within the tolerance of the expected line is a true positive, beyond it not") {
  struct Row {
    int line;
    int tolerance;
    bool hit;
  };
  const Row rows[] = {{12, 0, true}, {13, 0, false}, {14, 2, true}, {15, 2, false}, {10, 2, true}, {9, 5, false}};
  for (const Row& r : rows) {
    CAPTURE(r.line);
    CAPTURE(r.tolerance);
    auto s =
        score({finding("review", "src/app.py", r.line, "eval-of-input")}, oneExpectation(r.tolerance), kDiff, kAll);
    CHECK(s.counts.truePositives == (r.hit ? 1 : 0));
    CHECK(s.counts.falsePositives == (r.hit ? 0 : 1));
    CHECK(s.counts.falseNegatives == (r.hit ? 0 : 1));
  }
}

TEST_CASE("eval matcher: a rule matches exactly or as the last part of the rule id, a tag in the rule or message") {
  EvalCase c;
  c.tolerance = 0;
  c.expect = {expect("src/app.py", 11, 11, "unquoted-var")};
  c.expect.push_back(expect("src/app.py", 15, 15));
  c.expect.back().tag = "Injection";
  auto s = score({finding("lint", "src/app.py", 11, "shellcheck/unquoted-var"),
                  finding("security", "src/app.py", 15, "security/x", 0, "possible command injection here")},
                 c, kDiff, kAll);
  CHECK(s.counts.truePositives == 2);
  auto other = score({finding("lint", "src/app.py", 11, "shellcheck/unquoted-var-x")}, c, kDiff, kAll);
  CHECK(other.counts.truePositives == 0);
  CHECK(other.counts.falseNegatives == 2);
}

TEST_CASE("eval matcher: a finding outside the diff is never a true positive, even on the expected line") {
  EvalCase c;
  c.tolerance = 2;
  c.expect = {expect("src/app.py", 8, 8, "r"), expect("README.md", 1, 1, "r")};
  // Line 8 is expected but not in the change's hunks (10-20); README.md is not in the change at all.
  auto s = score({finding("review", "src/app.py", 8, "r"), finding("review", "README.md", 1, "r")}, c, kDiff, kAll);
  CHECK(s.counts.truePositives == 0);
  CHECK(s.counts.falsePositives == 2);
  CHECK(s.counts.falseNegatives == 2);
  CHECK(s.verdicts[0].verdict == Verdict::OutsideDiff);
  CHECK(s.verdicts[1].verdict == Verdict::OutsideDiff);
  // A range that reaches into a hunk is inside it.
  CHECK(insideDiff(finding("review", "src/app.py", 7, "r", 10), kDiff));
  CHECK_FALSE(insideDiff(finding("review", "src/app.py", 0, "r"), kDiff));
}

TEST_CASE("eval matcher: duplicates count once, repeated or answering an answered expectation") {
  auto f = finding("review", "src/app.py", 12, "eval-of-input");
  auto s = score({f, f, finding("review", "src/app.py", 13, "eval-of-input")}, oneExpectation(), kDiff, kAll);
  CHECK(s.counts.truePositives == 1);
  CHECK(s.counts.falsePositives == 0);
  CHECK(s.counts.duplicates == 2);
  CHECK(s.counts.findings == 2);
  CHECK(*precision(s.counts) == doctest::Approx(1.0));
}

TEST_CASE("eval matcher: a must-not finding is a false positive, even where a finding was expected") {
  EvalCase c = oneExpectation();
  c.mustNot = {expect("src/app.py", 12, 12, "eval-of-input")};
  c.mustNot.push_back(expect("scripts/x.sh", 0, 0));
  auto s = score({finding("review", "src/app.py", 12, "eval-of-input"), finding("lint", "scripts/x.sh", 3, "sc2086")},
                 c, kDiff, kAll);
  CHECK(s.counts.truePositives == 0);
  CHECK(s.counts.falsePositives == 2);
  CHECK(s.verdicts[0].verdict == Verdict::MustNot);
  CHECK(s.verdicts[1].verdict == Verdict::MustNot);
  CHECK(*precision(s.counts) == doctest::Approx(0.0));
}

TEST_CASE("eval matcher: per step, only the expectations naming the step are its false negatives") {
  EvalCase c;
  c.expect = {expect("src/app.py", 12, 12, "r1", "review"), expect("scripts/x.sh", 2, 2, "sc2086", "lint"),
              expect("src/app.py", 18, 18, "")};
  std::vector<Finding> fs = {finding("review", "src/app.py", 12, "r1"), finding("security", "src/app.py", 18, "s")};
  auto review = score(fs, c, kDiff, {{"review"}, false});
  CHECK(review.counts.truePositives == 1);
  CHECK(review.counts.falseNegatives == 0);
  auto lint = score(fs, c, kDiff, {{"lint"}, false});
  CHECK(lint.counts.truePositives == 0);
  CHECK(lint.counts.falseNegatives == 1);
  CHECK_FALSE(precision(lint.counts).has_value());
  CHECK(*recall(lint.counts) == doctest::Approx(0.0));
  auto security = score(fs, c, kDiff, {{"security"}, false});
  CHECK(security.counts.truePositives == 1);  // the expectation that names no step
  auto all = score(fs, c, kDiff, kAll);
  CHECK(all.counts.truePositives == 2);
  CHECK(all.counts.falseNegatives == 1);
  CHECK(*f1(all.counts) == doctest::Approx(0.8));
}

TEST_CASE("eval matcher: a step's finding does not answer an expectation naming another step") {
  EvalCase c;
  c.expect = {expect("src/app.py", 12, 12, "", "review")};
  auto s = score({finding("security", "src/app.py", 12, "s")}, c, kDiff, kAll);
  CHECK(s.counts.truePositives == 0);
  CHECK(s.counts.falsePositives == 1);
  CHECK(s.counts.falseNegatives == 1);
}
