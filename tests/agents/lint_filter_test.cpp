// reviewdog's filter modes against the diff of a real git repository:
// which of the same findings each mode keeps.
#include <doctest/doctest.h>

#include "agents/lint/diff_filter.h"
#include "lint_test_support.h"

using namespace lw;
using namespace lw::agents::lint;

namespace {

std::string numbered(int n, int changed = 0) {
  std::string text;
  for (int i = 1; i <= n; ++i) text += i == changed ? "echo changed\n" : "echo l" + std::to_string(i) + "\n";
  return text;
}

Finding at(const std::string& path, int line, int endLine = 0) {
  Finding f;
  f.ruleId = "lint/t";
  f.path = path;
  f.line = line;
  f.endLine = endLine;
  return f;
}

// a.sh: line 10 of 20 changed (its hunk spans 7..13 with git's 3 lines of
// context); b.sh: added (unlike d.sh, or git would call it a rename);
// c.sh: unchanged; d.sh: deleted.
struct RealDiff {
  test::GitRepo repo;
  DiffLines lines;
  RealDiff() {
    std::string base = repo.commit({{"a.sh", numbered(20)}, {"c.sh", numbered(3)}, {"d.sh", numbered(2)}});
    repo.git({"rm", "-q", "d.sh"});
    std::string head = repo.commit({{"a.sh", numbered(20, 10)}, {"b.sh", "printf b1\nprintf b2\nprintf b3\n"}});
    auto index = diff::DiffIndex::parse(repo.diff(base, head));
    REQUIRE(index.ok());
    lines = DiffLines::of(*index);
  }
};

}  // namespace

TEST_CASE("lint filter: each mode against a real git diff") {
  RealDiff diff;
  struct Case {
    const char* name;
    Finding finding;
    bool added, context, file, nofilter;
  };
  const Case cases[] = {
      {"the changed line", at("a.sh", 10), true, true, true, true},
      {"a context line of its hunk", at("a.sh", 8), false, true, true, true},
      {"a line of the changed file outside the hunk", at("a.sh", 2), false, false, true, true},
      {"a range with one added line", at("a.sh", 8, 10), true, true, true, true},
      {"a range of context only", at("a.sh", 11, 13), false, true, true, true},
      {"a range that ends before the hunk", at("a.sh", 1, 6), false, false, true, true},
      {"a line of an added file", at("b.sh", 2), true, true, true, true},
      {"a whole added file (no line)", at("b.sh", 0), false, false, true, true},
      {"an unchanged file", at("c.sh", 1), false, false, false, true},
      {"a deleted file", at("d.sh", 1), false, false, false, true},
      {"the change as a whole (no path)", at("", 0), false, false, false, true},
  };
  for (const Case& c : cases) {
    std::string name = c.name;
    CAPTURE(name);
    CHECK(shouldReport(diff.lines, FilterMode::Added, c.finding) == c.added);
    CHECK(shouldReport(diff.lines, FilterMode::DiffContext, c.finding) == c.context);
    CHECK(shouldReport(diff.lines, FilterMode::File, c.finding) == c.file);
    CHECK(shouldReport(diff.lines, FilterMode::NoFilter, c.finding) == c.nofilter);
  }
}

TEST_CASE("lint filter: filterFindings keeps the linter's order") {
  RealDiff diff;
  std::vector<Finding> all{at("c.sh", 1), at("b.sh", 3), at("a.sh", 10), at("a.sh", 2)};
  auto kept = filterFindings(all, diff.lines, FilterMode::Added);
  REQUIRE(kept.size() == 2);
  CHECK(kept[0].path == "b.sh");
  CHECK(kept[1].path == "a.sh");
  CHECK(filterFindings(all, diff.lines, FilterMode::File).size() == 3);
  CHECK(filterFindings(all, diff.lines, FilterMode::NoFilter).size() == 4);
}

TEST_CASE("lint filter: mode names as the catalogue spells them") {
  CHECK(parseFilterMode("added") == std::optional<FilterMode>(FilterMode::Added));
  CHECK(parseFilterMode("diff_context") == std::optional<FilterMode>(FilterMode::DiffContext));
  CHECK(parseFilterMode("file") == std::optional<FilterMode>(FilterMode::File));
  CHECK(parseFilterMode("nofilter") == std::optional<FilterMode>(FilterMode::NoFilter));
  CHECK_FALSE(parseFilterMode("default").has_value());
}
