#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "policy/load/taskpack_loader.h"
#include "policy/model/scope_glob.h"

using namespace lw;

namespace {

const TaskpackLoadOptions kOpts{"/home/alice"};

// A taskpack with one step whose body (after "- name: fmt") is `stepBody`,
// each line indented to the step's mapping.
std::string withStep(const std::string& stepBody) {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n"
         "  stages:\n    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
         "        - name: fmt\n          run: [./fix.sh]\n" +
         stepBody;
}

// "line:col path: message" of each diagnostic.
std::vector<std::string> problems(const std::string& text) {
  auto r = parseTaskpack(text, "tp.yaml", kOpts);
  std::vector<std::string> out;
  if (r.ok()) return out;
  CHECK(r.error().code == ErrorCode::TaskpackInvalid);
  for (const auto& d : r.error().diagnostics)
    out.push_back(std::to_string(d.location.line) + ":" + std::to_string(d.location.column) + " " + d.location.path +
                  ": " + d.message);
  return out;
}

const std::string kStepPath = "spec.stages[0].steps[0]";

}  // namespace

TEST_CASE("task contract: every key of an author step is read") {
  auto r = parseTaskpack(withStep("          role: author\n"
                                  "          writable: [\"src/**\"]\n"
                                  "          expects: [\"src/**/*.c\", src/main.c]\n"
                                  "          validate: [make, check-format]\n"
                                  "          maxChangedFiles: 20\n"
                                  "          maxChangedLines: 400\n"
                                  "          maxBinaryBytes: 65536\n"
                                  "          gitRuleFiles: [src/.gitignore, src/gen/.gitattributes]\n"
                                  "          onStop: \"run clang-format locally and push\"\n"),
                         "tp.yaml", kOpts);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().diagnostics.front().message));
  const TaskContract& c = r->stages[0].steps[0].contract;
  CHECK(c.expects == std::vector<std::string>{"src/**/*.c", "src/main.c"});
  CHECK(c.validate == std::vector<std::string>{"make", "check-format"});
  CHECK(c.maxChangedFiles == 20);
  CHECK(c.maxChangedLines == 400);
  CHECK(c.maxBinaryBytes == 65536);
  CHECK(c.binaryBytesBound() == 65536);
  CHECK(c.gitRuleFiles == std::vector<std::string>{"src/.gitignore", "src/gen/.gitattributes"});
  CHECK(c.onStop == "run clang-format locally and push");
  CHECK(c.declared());
  CHECK(c.location.line == 13);
}

TEST_CASE("task contract: a step without one declares none") {
  auto r = parseTaskpack(withStep("          role: author\n"), "tp.yaml", kOpts);
  REQUIRE(r.ok());
  CHECK_FALSE(r->stages[0].steps[0].contract.declared());
}

TEST_CASE("task contract: each error with its location") {
  const std::string author = "          role: author\n          writable: [\"src/**\"]\n";
  SUBCASE("on a reviewer step, each key refused") {
    auto p = problems(withStep("          expects: [src/a.c]\n          onStop: fix it\n"));
    REQUIRE(p.size() == 2);
    CHECK(p[0] == "11:11 " + kStepPath + ".expects: only an author step has a task contract ('expects')");
    CHECK(p[1] == "12:11 " + kStepPath + ".onStop: only an author step has a task contract ('onStop')");
  }
  SUBCASE("expects outside the writable scope, and outside the workspace") {
    auto p = problems(withStep(author + "          expects: [docs/a.md, \"src/**\", ../x, \"**\"]\n"));
    REQUIRE(p.size() == 3);
    CHECK(p[0] == "13:42 " + kStepPath + ".expects[2]: '../x' is not a path inside the workspace");
    CHECK(p[1] == "13:21 " + kStepPath + ".expects[0]: 'docs/a.md' is outside the step's writable scope");
    CHECK(p[2] == "13:48 " + kStepPath + ".expects[3]: '**' is outside the step's writable scope");
  }
  SUBCASE("expects: an empty list") {
    auto p = problems(withStep(author + "          expects: []\n"));
    REQUIRE(p.size() == 1);
    CHECK(p[0] == "13:20 " + kStepPath + ".expects: has 0 items");
  }
  SUBCASE("validate: empty, an empty argument, not strings, too long") {
    CHECK(problems(withStep(author + "          validate: []\n")) ==
          std::vector<std::string>{"13:21 " + kStepPath + ".validate: has 0 items"});
    CHECK(problems(withStep(author + "          validate: [make, \"\"]\n")) ==
          std::vector<std::string>{"13:28 " + kStepPath + ".validate[1]: is an empty argument"});
    CHECK(problems(withStep(author + "          validate: [make, [a]]\n")) ==
          std::vector<std::string>{"13:28 " + kStepPath + ".validate[1]: must be a string, not a list"});
    std::string many = "          validate: [";
    for (int i = 0; i < 65; ++i) many += (i ? ", " : "") + std::string("a");
    CHECK(problems(withStep(author + many + "]\n")) ==
          std::vector<std::string>{"13:21 " + kStepPath + ".validate: has 65 items"});
    CHECK(problems(withStep(author + "          validate: make check\n")) ==
          std::vector<std::string>{"13:21 " + kStepPath + ".validate: must be a list, not a scalar"});
  }
  SUBCASE("bounds of maxChangedFiles and maxChangedLines") {
    CHECK(problems(withStep(author + "          maxChangedFiles: 100000\n          maxChangedLines: 10_000_000\n"))
              .empty());
    auto p = problems(withStep(author + "          maxChangedFiles: 0\n          maxChangedLines: 10000001\n"));
    REQUIRE(p.size() == 2);
    CHECK(p[0].starts_with("13:28 " + kStepPath + ".maxChangedFiles: "));
    CHECK(p[1].starts_with("14:28 " + kStepPath + ".maxChangedLines: "));
    CHECK(problems(withStep(author + "          maxChangedFiles: 100001\n")).size() == 1);
  }
  SUBCASE("bounds of maxBinaryBytes") {
    CHECK(problems(withStep(author + "          maxBinaryBytes: 1073741824\n")).empty());
    CHECK(problems(withStep(author + "          maxBinaryBytes: 0\n")).size() == 1);
    CHECK(problems(withStep(author + "          maxBinaryBytes: 1073741825\n")).size() == 1);
  }
  SUBCASE("gitRuleFiles: exact paths of rule files inside the writable scope") {
    CHECK(problems(withStep(author + "          gitRuleFiles: [src/.gitignore, src/a/.gitattributes]\n")).empty());
    auto p = problems(withStep(author + "          gitRuleFiles: [\"src/**/.gitignore\", src/a.c, ../.gitignore, "
                                        ".gitattributes]\n"));
    REQUIRE(p.size() == 4);
    CHECK(p[0] == "13:26 " + kStepPath +
                      ".gitRuleFiles[0]: 'src/**/.gitignore' is not an exact path inside the "
                      "workspace");
    CHECK(p[1] == "13:47 " + kStepPath + ".gitRuleFiles[1]: 'src/a.c' is not a .gitattributes or .gitignore file");
    CHECK(p[2] == "13:56 " + kStepPath +
                      ".gitRuleFiles[2]: '../.gitignore' is not an exact path inside the "
                      "workspace");
    CHECK(p[3] == "13:71 " + kStepPath + ".gitRuleFiles[3]: '.gitattributes' is outside the step's writable scope");
    CHECK(problems(withStep(author + "          gitRuleFiles: []\n")) ==
          std::vector<std::string>{"13:25 " + kStepPath + ".gitRuleFiles: has 0 items"});
  }
  SUBCASE("onStop: several lines, empty, too long") {
    CHECK(problems(withStep(author + "          onStop: \"a\\nb\"\n")) ==
          std::vector<std::string>{"13:19 " + kStepPath + ".onStop: spans more than one line"});
    CHECK(problems(withStep(author + "          onStop: \"\"\n")) ==
          std::vector<std::string>{"13:19 " + kStepPath + ".onStop: is empty"});
    CHECK(problems(withStep(author + "          onStop: " + std::string(501, 'x') + "\n")) ==
          std::vector<std::string>{"13:19 " + kStepPath + ".onStop: is 501 characters long"});
    CHECK(problems(withStep(author + "          onStop: " + std::string(500, 'x') + "\n")).empty());
  }
  SUBCASE("a misspelt key gets a did-you-mean") {
    auto r = parseTaskpack(withStep(author + "          expect: [src/a.c]\n"), "tp.yaml", kOpts);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().diagnostics.at(0).hint.find("expects") != std::string::npos);
  }
}

TEST_CASE("scope glob: an expects entry within a writable scope") {
  struct Case {
    std::string inner;
    std::vector<std::string> scope;
    bool within;
  };
  const Case cases[] = {
      {"src/**/*.c", {"src/**"}, true},
      {"src/main.c", {"src/**"}, true},
      {"src", {"src/**"}, true},
      {"src/main.c", {"src/*.c"}, true},
      {"src/m*.c", {"src/*.c"}, true},
      {"src/*.c", {"src/*.c"}, true},
      {"src/**", {"src/*.c"}, false},
      {"src/*", {"src/*.c"}, false},
      {"src/*", {"src/?"}, false},
      {"src/a", {"src/?"}, true},
      {"src/a/b.c", {"src/*"}, false},
      {"docs/a.md", {"src/**"}, false},
      {"docs/a.md", {"src/**", "docs/**"}, true},
      {"a/b/c/d.c", {"a/**/d.c"}, true},
      {"a/**/d.c", {"a/*/d.c"}, false},
      {"anything/at/all", {}, true},
      {"**", {"src/**"}, false},
      {"**", {"**"}, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.inner);
    CHECK(globWithinScope(c.inner, c.scope) == c.within);
  }
}

TEST_CASE("scope glob: a git rule file is a .gitattributes or .gitignore anywhere") {
  CHECK(isGitRuleFile(".gitignore"));
  CHECK(isGitRuleFile("src/deep/.gitattributes"));
  CHECK_FALSE(isGitRuleFile("src/.gitignore.bak"));
  CHECK_FALSE(isGitRuleFile("src/x.gitignore"));
  CHECK_FALSE(isGitRuleFile(".gitmodules"));
  CHECK_FALSE(isGitRuleFile(".gitignore/x"));
}

TEST_CASE("task contract: the binary bound is maxBinaryBytes, else none beside a line bound") {
  TaskContract c;
  CHECK_FALSE(c.binaryBytesBound().has_value());
  c.maxChangedFiles = 3;
  CHECK_FALSE(c.binaryBytesBound().has_value());
  c.maxChangedLines = 40;
  CHECK(c.binaryBytesBound() == 0);
  c.maxBinaryBytes = 4096;
  CHECK(c.binaryBytesBound() == 4096);
  TaskContract onlyBytes;
  onlyBytes.maxBinaryBytes = 10;
  CHECK(onlyBytes.binaryBytesBound() == 10);
  CHECK(onlyBytes.declared());
  TaskContract onlyRules;
  onlyRules.gitRuleFiles = {".gitignore"};
  CHECK(onlyRules.declared());
}

TEST_CASE("scope glob: inside the workspace") {
  CHECK(isScopeGlob("src/**"));
  CHECK(isScopeGlob("a..b/c"));
  CHECK_FALSE(isScopeGlob(""));
  CHECK_FALSE(isScopeGlob("/etc"));
  CHECK_FALSE(isScopeGlob("~/x"));
  CHECK_FALSE(isScopeGlob("a/../../b"));
  CHECK_FALSE(isScopeGlob(".."));
}
