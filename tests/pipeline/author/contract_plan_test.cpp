// The task contract's judgement of an author step's change, as a table.
#include <doctest/doctest.h>

#include "pipeline/author/contract_plan.h"
#include "pipeline/step/refusal_blocker.h"

using namespace lw;
using namespace lw::pipeline;

namespace {

AuthorChange changeOf(std::vector<std::string> paths, std::int64_t added, std::int64_t deleted) {
  AuthorChange c;
  c.filesChanged = static_cast<std::int64_t>(paths.size());
  c.paths = std::move(paths);
  c.linesAdded = added;
  c.linesDeleted = deleted;
  return c;
}

AuthorChange withBinary(AuthorChange c, std::vector<std::string> binaryPaths, std::int64_t bytes) {
  c.binaryPaths = std::move(binaryPaths);
  c.binaryBytes = bytes;
  return c;
}

TaskContract contractOf(std::vector<std::string> expects, std::optional<std::int64_t> files,
                        std::optional<std::int64_t> lines) {
  TaskContract t;
  t.expects = std::move(expects);
  t.maxChangedFiles = files;
  t.maxChangedLines = lines;
  return t;
}

}  // namespace

TEST_CASE("task contract: the judgement of a change") {
  struct Case {
    const char* name;
    std::optional<AuthorChange> change;
    TaskContract contract;
    std::optional<ErrorCode> code;
    std::string message;
  };
  std::vector<std::string> many(31);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = "src/f" + std::to_string(i) + ".c";
  const Case cases[] = {
      {"no contract keeps any change", changeOf({"a"}, 5, 5), {}, std::nullopt, ""},
      {"no contract keeps no change", std::nullopt, {}, std::nullopt, ""},
      {"within both bounds", changeOf({"src/a.c"}, 300, 100), contractOf({}, 1, 400), std::nullopt, ""},
      {"too many files", changeOf(many, 31, 0), contractOf({}, 20, std::nullopt), ErrorCode::PathPolicyViolation,
       "changed 31 files, the contract allows 20"},
      {"too many lines", changeOf({"src/a.c"}, 300, 101), contractOf({}, std::nullopt, 400),
       ErrorCode::PathPolicyViolation, "changed 401 lines (300 added, 101 deleted), the contract allows 400"},
      {"both bounds and an expects entry: every clause, the bound's code", changeOf({"src/a.c", "src/b.c"}, 1, 0),
       contractOf({"docs/**"}, 1, std::nullopt), ErrorCode::PathPolicyViolation,
       "changed 2 files, the contract allows 1; no changed path matches expects `docs/**`"},
      {"expects met by a glob", changeOf({"docs/x.md", "src/lib/a.c"}, 1, 1), contractOf({"src/**/*.c"}, {}, {}),
       std::nullopt, ""},
      {"expects met by an exact path", changeOf({"src/a.c"}, 1, 1), contractOf({"src/a.c"}, {}, {}), std::nullopt, ""},
      {"an expects entry unmatched", changeOf({"src/a.c"}, 1, 1), contractOf({"src/a.c", "src/*.h"}, {}, {}),
       ErrorCode::ContractUnmet, "no changed path matches expects `src/*.h`"},
      {"no change from a step that expects one", std::nullopt, contractOf({"src/**/*.c", "README.md"}, 5, {}),
       ErrorCode::ContractUnmet, "changed nothing, the contract expects a change to src/**/*.c, README.md"},
      {"an empty change from a step that expects one", changeOf({}, 0, 0), contractOf({"src/**"}, {}, {}),
       ErrorCode::ContractUnmet, "changed nothing, the contract expects a change to src/**"},
      {"no change and only bounds", std::nullopt, contractOf({}, 1, 1), std::nullopt, ""},
      {"exactly at the bounds", changeOf({"a", "b"}, 2, 2), contractOf({}, 2, 4), std::nullopt, ""},
      {"a rule file without a contract",
       changeOf({"src/a.c", "src/lib/.gitattributes"}, 2, 0),
       {},
       ErrorCode::PathPolicyViolation,
       "changed src/lib/.gitattributes: .gitattributes and .gitignore files the contract does not list in "
       "gitRuleFiles"},
      {"rule files not listed, named with the other broken clauses",
       changeOf({".gitignore", "src/.gitattributes", "src/a.c"}, 302, 0), contractOf({"docs/**"}, {}, 40),
       ErrorCode::PathPolicyViolation,
       "changed .gitignore, src/.gitattributes: .gitattributes and .gitignore files the contract does not list in "
       "gitRuleFiles; changed 302 lines (302 added, 0 deleted), the contract allows 40; no changed path matches "
       "expects `docs/**`"},
      {"rule files listed", changeOf({"src/.gitattributes", "src/.gitignore", "src/a.c"}, 3, 0),
       [] {
         TaskContract t;
         t.gitRuleFiles = {"src/.gitignore", "src/.gitattributes"};
         return t;
       }(),
       std::nullopt, ""},
      {"one rule file listed, another not", changeOf({"src/.gitattributes", "src/.gitignore"}, 2, 0),
       [] {
         TaskContract t;
         t.gitRuleFiles = {"src/.gitignore"};
         return t;
       }(),
       ErrorCode::PathPolicyViolation,
       "changed src/.gitattributes: .gitattributes and .gitignore files the contract does not list in gitRuleFiles"},
      {"a binary file beside a line bound, no maxBinaryBytes",
       withBinary(changeOf({"src/a.c"}, 0, 0), {"src/a.c"}, 7000), contractOf({}, {}, 40),
       ErrorCode::PathPolicyViolation,
       "changed 7000 bytes in 1 binary file (src/a.c), the contract allows none: it bounds lines and sets no "
       "maxBinaryBytes"},
      {"binary files over maxBinaryBytes, each counted as a file",
       withBinary(changeOf({"a.png", "b.png", "c.png"}, 0, 0), {"a.png", "b.png", "c.png"}, 5000),
       [] {
         TaskContract t = contractOf({}, 2, 40);
         t.maxBinaryBytes = 4096;
         return t;
       }(),
       ErrorCode::PathPolicyViolation,
       "changed 3 files, the contract allows 2; changed 5000 bytes in 3 binary files (a.png, b.png, c.png), the "
       "contract allows 4096"},
      {"binary files within maxBinaryBytes", withBinary(changeOf({"a.png"}, 0, 0), {"a.png"}, 4096),
       [] {
         TaskContract t = contractOf({}, {}, 40);
         t.maxBinaryBytes = 4096;
         return t;
       }(),
       std::nullopt, ""},
      {"binary files without any size bound", withBinary(changeOf({"a.png"}, 0, 0), {"a.png"}, 1 << 20),
       contractOf({}, 5, {}), std::nullopt, ""},
      {"many paths named up to five", withBinary(changeOf({}, 0, 0), {"a", "b", "c", "d", "e", "f", "g"}, 9),
       contractOf({}, {}, 1), ErrorCode::PathPolicyViolation,
       "changed 9 bytes in 7 binary files (a, b, c, d, e and 2 more), the contract allows none: it bounds lines "
       "and sets no maxBinaryBytes"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    auto refusal = judgeChange(c.change ? &*c.change : nullptr, c.contract);
    REQUIRE(refusal.has_value() == c.code.has_value());
    if (!refusal) continue;
    CHECK(refusal->code == *c.code);
    CHECK(refusal->message == c.message);
  }
}

TEST_CASE("task contract: when the validate command is due") {
  TaskContract withValidate;
  withValidate.validate = {"make", "check"};
  AuthorChange changed = changeOf({"src/a.c"}, 1, 0);
  CHECK(validationDue(changed, withValidate));
  CHECK_FALSE(validationDue(changed, TaskContract{}));
  CHECK_FALSE(validationDue(changeOf({}, 0, 0), withValidate));
  AuthorChange refused = changed;
  refused.refusedBecause = "changed 31 files, the contract allows 20";
  CHECK_FALSE(validationDue(refused, withValidate));
}

TEST_CASE("task contract: the judgement of a validate run") {
  ValidationRun run;
  run.command = {"make", "check-format"};
  run.stdoutPath = "/o/validate/stdout.log";
  run.stderrPath = "/o/validate/stderr.log";
  run.wallTimeMs = 600000;
  SUBCASE("passed") {
    run.passed = true;
    run.exitStatus = 0;
    CHECK_FALSE(judgeValidation(run).has_value());
  }
  SUBCASE("exited non-zero") {
    run.exitStatus = 2;
    auto e = judgeValidation(run);
    REQUIRE(e);
    CHECK(e->code == ErrorCode::ContractUnmet);
    CHECK(e->message == "validate `make check-format` exited 2");
    CHECK(e->hint == "its output is in /o/validate/stdout.log and /o/validate/stderr.log");
  }
  SUBCASE("ran past the wall time") {
    run.timedOut = true;
    run.exitStatus = 124;
    CHECK(judgeValidation(run)->message == "validate `make check-format` ran past the step's wall time of 600000 ms");
  }
  SUBCASE("could not run") {
    run.error = "make: not found";
    CHECK(judgeValidation(run)->message == "validate `make check-format` could not run: make: not found");
  }
}

TEST_CASE("task contract: onStop is the next action of the step's BLOCKERs") {
  Step step;
  CHECK(nextActionFor(step, "look at the logs") == "look at the logs");
  step.contract.onStop = "run clang-format locally and push";
  CHECK(nextActionFor(step, "look at the logs") == "run clang-format locally and push");
}
