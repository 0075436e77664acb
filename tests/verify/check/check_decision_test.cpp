#include <doctest/doctest.h>

#include "verify/check/check_decision.h"

using namespace lw;
using namespace lw::verify;

namespace {

Change change(std::string path, ChangeKind kind = ChangeKind::Modified, Area area = Area::WorkTree) {
  Change c;
  c.kind = kind;
  c.area = area;
  c.category = area == Area::WorkTree ? Category::WorkTree : categorizeGitPath(path);
  c.resolved = "/w/" + path;
  c.given = c.resolved;
  c.path = std::move(path);
  return c;
}

ObservedChange observed(Change c) {
  ObservedChange o;
  o.change = std::move(c);
  return o;
}

ObservedChange symlinkTo(std::string path, ResolvedPath target) {
  ObservedChange o = observed(change(std::move(path), ChangeKind::Added));
  o.change.linkTarget = target.given;
  o.linkTarget = Result<ResolvedPath>(std::move(target));
  return o;
}

ResolvedPath inside(std::string rel) { return {rel, "/w/" + rel, true, rel}; }

CheckPolicy author(std::vector<std::string> writable = {"src/**"}) {
  CheckPolicy p;
  p.role = Role::Author;
  p.writableGlobs = std::move(writable);
  p.stepName = "fix";
  return p;
}

}  // namespace

TEST_CASE("check decision: a read-only step may change nothing but the index's stat cache") {
  for (Role role : {Role::Reviewer, Role::Triage}) {
    CheckPolicy p;
    p.role = role;
    Verdict v = verdictFor(observed(change("src/a.c")), p);
    CHECK(v.violation == ErrorCode::ReadOnlyViolation);
    CHECK(v.reason == "a " + std::string(toString(role)) + " step may not change the repository");
    ObservedChange refresh = observed(change("index", ChangeKind::Modified, Area::GitDir));
    refresh.change.benign = true;
    CHECK_FALSE(verdictFor(refresh, p).violation);
  }
}

TEST_CASE("check decision: an author's change is judged by where it is") {
  struct Row {
    Change change;
    std::optional<ErrorCode> violation;
    const char* reason;
  };
  Change gitConfig = change("config", ChangeKind::Modified, Area::GitDir);
  gitConfig.resolved = "/w/.git/config";
  Change nestedGit = change("sub/.git/hooks/pre-commit", ChangeKind::Added);
  nestedGit.category = Category::Hook;
  Change newDir = change("src", ChangeKind::Added);
  newDir.isDir = true;
  Change deletedDir = change("lib", ChangeKind::Deleted);
  deletedDir.isDir = true;
  constexpr auto kPath = ErrorCode::PathPolicyViolation;
  const Row rows[] = {
      {change("src/a.c"), std::nullopt, ""},
      {change("README.md"), kPath, "outside the step's writable scope"},
      {change(".github/workflows/ci.yml"), kPath, "protected path"},
      {gitConfig, kPath,
       "'/w/.git/config' is the repository's git state (config): nothing under a git directory is "
       "writable by any step"},
      {nestedGit, kPath,
       "'sub/.git/hooks/pre-commit' is inside a .git (hook): nothing under a git directory is writable "
       "by any step"},
      {newDir, std::nullopt, ""},
      {deletedDir, kPath, "outside the step's writable scope"},
  };
  CheckPolicy p = author({"src/**", "lib/gen/**"});
  for (const Row& row : rows) {
    CAPTURE(row.change.path);
    Verdict v = verdictFor(observed(row.change), p);
    CHECK(v.violation == row.violation);
    CHECK(v.reason == row.reason);
  }
}

TEST_CASE("check decision: an author's symlink is held to the policy where it leads") {
  CheckPolicy p = author();
  CHECK_FALSE(verdictFor(symlinkTo("src/l", inside("src/b.c")), p).violation);
  CHECK(verdictFor(symlinkTo("src/l", {"/etc/passwd", "/etc/passwd", false, ""}), p).reason ==
        "symlink points outside the workspace: /etc/passwd");
  CHECK(verdictFor(symlinkTo("src/l", inside(".github/workflows/x.yml")), p).reason ==
        "symlink into a protected path: .github/workflows/x.yml");
  CHECK(verdictFor(symlinkTo("src/l", inside(".git/config")), p).reason == "symlink into a git directory: .git/config");
  ObservedChange loop = observed(change("src/l", ChangeKind::Added));
  loop.linkTarget = Result<ResolvedPath>(makeError(ErrorCode::PathPolicyViolation, "symlink loop"));
  CHECK(verdictFor(loop, p).reason == "symlink loop");
}

TEST_CASE("check decision: declared paths are resolved first, then judged like changes") {
  CheckPolicy p = author();
  CHECK_FALSE(verdictFor(DeclaredPath{"src/a.c", inside("src/a.c")}, p).violation);
  CHECK(verdictFor(DeclaredPath{"../x", ResolvedPath{"../x", "/x", false, ""}}, p).reason == "outside the workspace");
  CHECK(verdictFor(DeclaredPath{"sub/.git/config", inside("sub/.git/config")}, p).reason ==
        "'sub/.git/config' is inside a .git: no step may write there");
  CHECK(verdictFor(DeclaredPath{"AGENTS.md", inside("AGENTS.md")}, p).reason == "protected path");
  CHECK(verdictFor(DeclaredPath{"docs/x", inside("docs/x")}, p).reason == "outside the step's writable scope");
}

TEST_CASE("check decision: the first violation, the count and the declared paths that fail") {
  Observation o;
  o.changes = {observed(change("src/a.c")), observed(change("README.md")),
               observed(change("config", ChangeKind::Modified, Area::GitDir))};
  o.declared = {{"src/a.c", inside("src/a.c")}, {"docs/x", inside("docs/x")}};
  o.notes = {"a note"};
  CheckReport r = decide(std::move(o), author());
  REQUIRE(r.changes.size() == 3);
  CHECK_FALSE(r.changes[0].violation);
  CHECK(r.changes[1].violation == ErrorCode::PathPolicyViolation);
  CHECK(r.violations == 3);
  CHECK(r.violation == ErrorCode::PathPolicyViolation);
  REQUIRE(r.declared.size() == 1);
  CHECK(r.declared[0].given == "docs/x");
  CHECK(r.declared[0].resolved == "/w/docs/x");
  CHECK(r.notes == std::vector<std::string>{"a note"});
  // No restore asked for: nothing is to be undone.
  for (const Change& c : r.changes) CHECK(c.remedy == Remedy::None);
}

TEST_CASE("check decision: a reviewer's declared paths are not judged") {
  Observation o;
  o.declared = {{"docs/x", inside("docs/x")}};
  CheckPolicy p;
  p.role = Role::Reviewer;
  CheckReport r = decide(std::move(o), p);
  CHECK(r.ok());
  CHECK(r.declared.empty());
}

TEST_CASE("check decision: what a restore undoes, and what it puts back") {
  SUBCASE("an author's violations only; an earlier step's quarantine ref is put back") {
    Observation o;
    o.changes = {observed(change("src/a.c")), observed(change("README.md")),
                 observed(change("refs/loopwright/quarantine/r/s", ChangeKind::RefMoved, Area::GitDir))};
    CheckPolicy p = author();
    p.restore = true;
    p.ownQuarantines = {{"refs/loopwright/quarantine/r/s", "abc"}};
    CheckReport r = decide(std::move(o), p);
    CHECK(r.changes[0].remedy == Remedy::None);
    CHECK(r.changes[1].remedy == Remedy::Undo);
    CHECK(r.changes[2].remedy == Remedy::PutBack);
  }
  SUBCASE("a reviewer's every change, the benign index refresh with it") {
    Observation o;
    o.changes = {observed(change("a.c")), observed(change("index", ChangeKind::Modified, Area::GitDir))};
    o.changes[1].change.benign = true;
    CheckPolicy p;
    p.restore = true;
    CheckReport r = decide(std::move(o), p);
    CHECK(r.violations == 1);
    CHECK(r.changes[0].remedy == Remedy::Undo);
    CHECK(r.changes[1].remedy == Remedy::Undo);
  }
  SUBCASE("nothing when nothing violates the policy") {
    Observation o;
    o.changes = {observed(change("index", ChangeKind::Modified, Area::GitDir))};
    o.changes[0].change.benign = true;
    CheckPolicy p;
    p.restore = true;
    CheckReport r = decide(std::move(o), p);
    CHECK(r.ok());
    CHECK(r.changes[0].remedy == Remedy::None);
  }
}

TEST_CASE("check decision: a dependency manifest change is a finding, a CMakeLists.txt only with FetchContent") {
  Observation o;
  o.changes = {observed(change("src/package.json")), observed(change("src/CMakeLists.txt")),
               observed(change("src/CMakeLists.txt")), observed(change("src/Cargo.lock", ChangeKind::Deleted))};
  o.changes[2].mentionsFetchContent = true;
  o.changes[2].change.path = "src/sub/CMakeLists.txt";
  CheckReport r = decide(std::move(o), author());
  CHECK(r.ok());
  CHECK(r.changes[0].dependency);
  CHECK_FALSE(r.changes[1].dependency);
  CHECK(r.changes[2].dependency);
  REQUIRE(r.findings.size() == 3);
  CHECK(r.findings[0].ruleId == "verify/dependency-change");
  CHECK(r.findings[0].step == "fix");
  CHECK(r.findings[0].message ==
        "Dependency manifest or lock file modified: `src/package.json`. Review the dependency change before merging.");
  CHECK(r.findings[1].path == "src/sub/CMakeLists.txt");
  CHECK(r.findings[2].path.empty());  // deleted: no line to point at
}

TEST_CASE("check decision: the verification a report concludes, as the run record spells it") {
  CheckReport clean;
  CHECK(verificationOf(clean) == Verification::Passed);
  Observation o;
  o.changes = {observed(change("a.c"))};
  CHECK(verificationOf(decide(std::move(o), CheckPolicy{})) == Verification::Violation);
  CHECK(toString(Verification::NotRun) == "not-run");
  CHECK(toString(Verification::Passed) == "passed");
  CHECK(toString(Verification::Violation) == "violation");
}
