#include <doctest/doctest.h>

#include "agents/review/finding_mapping.h"

using namespace lw;
using namespace lw::agents::review;

namespace {

// a.py: one hunk on new lines 10-14, another on 30-31.
diff::DiffIndex sampleDiff() {
  auto d = diff::DiffIndex::parse(
      "--- a/a.py\n+++ b/a.py\n@@ -10,3 +10,5 @@\n x\n+y\n+z\n x\n x\n@@ -40,1 +30,2 @@\n q\n+w\n");
  REQUIRE(d);
  return *d;
}

ModelFinding at(int start, int end, std::optional<std::string> suggestion = std::nullopt) {
  return ModelFinding{"a.py", start, end, Severity::Warning, "bug", "Broken.", std::move(suggestion), 0.9};
}

ModelFinding ranked(const std::string& rule, Severity s, double confidence) {
  return ModelFinding{"a.py", 10, 10, s, rule, "m", std::nullopt, confidence};
}

std::vector<std::string> rules(const std::vector<ModelFinding>& fs) {
  std::vector<std::string> out;
  for (const ModelFinding& f : fs) out.push_back(f.rule);
  return out;
}

}  // namespace

TEST_CASE("review mapping: a range inside one hunk is inline with its suggestion") {
  Finding f = toFinding(at(11, 12, "fixed"), sampleDiff());
  CHECK(f.ruleId == "review/bug");
  CHECK(f.path == "a.py");
  CHECK(f.line == 11);
  CHECK(f.endLine == 12);
  CHECK(f.suggestion == std::optional<std::string>("fixed"));
  CHECK(f.message == "Broken.");
  Finding one = toFinding(at(30, 30, "w2"), sampleDiff());
  CHECK(one.line == 30);
  CHECK(one.endLine == 0);
  CHECK(one.suggestion == std::optional<std::string>("w2"));
}

TEST_CASE("review mapping: lines outside the diff keep the path only, never a line or suggestion") {
  Finding f = toFinding(at(20, 22, "x"), sampleDiff());
  CHECK(f.path == "a.py");
  CHECK(f.line == 0);
  CHECK(f.endLine == 0);
  CHECK_FALSE(f.suggestion);
  CHECK(f.message == "Broken.\n\n(lines 20-22 of a.py, outside the diff)");
}

TEST_CASE("review mapping: a range leaving its hunk keeps its first line without the suggestion") {
  Finding f = toFinding(at(13, 30, "x"), sampleDiff());
  CHECK(f.line == 13);
  CHECK(f.endLine == 0);
  CHECK_FALSE(f.suggestion);
  CHECK(f.message == "Broken.\n\n(lines 13-30; only line 13 is in the diff)");
}

TEST_CASE("review mapping: severity and confidence floors, duplicates, then the most severe and confident") {
  std::vector<ModelFinding> in = {ranked("n1", Severity::Notice, 0.99), ranked("w1", Severity::Warning, 0.7),
                                  ranked("e1", Severity::Error, 0.65),  ranked("w2", Severity::Warning, 0.95),
                                  ranked("low", Severity::Error, 0.3),  ranked("w1", Severity::Warning, 0.8)};
  CHECK(rules(keepWorthReporting(in, Severity::Notice, 0.6, 10)) == std::vector<std::string>{"e1", "w2", "w1", "n1"});
  CHECK(rules(keepWorthReporting(in, Severity::Warning, 0.6, 10)) == std::vector<std::string>{"e1", "w2", "w1"});
  CHECK(rules(keepWorthReporting(in, Severity::Notice, 0.0, 2)) == std::vector<std::string>{"e1", "low"});
  CHECK(rules(keepWorthReporting(in, Severity::Notice, 0.9, 10)) == std::vector<std::string>{"w2", "n1"});
}
