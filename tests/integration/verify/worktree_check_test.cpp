// A linked worktree (`git worktree add`, common for running agents side by
// side) keeps its HEAD and index under the common git directory and says
// where that is in a `.git` file: both are the repository's state, and the
// `.git` file is as sensitive as the config.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"

using namespace lw::verify;
using lw::test::TempRepo;

namespace {

// The fixture's repository with a linked worktree beside it (../linked),
// checked out on its own branch.
struct Linked {
  TempRepo repo;
  std::string dir;

  Linked() : dir(repo.dir() + "/../linked") { REQUIRE(repo.sh("git worktree add -q -b linked ../linked") == 0); }
  int sh(const std::string& script) const { return repo.sh("cd ../linked && " + script); }
  lw::Result<Baseline> baseline() const {
    BaselineOptions opts;
    opts.storePath = repo.scratch() + "/store";
    return takeBaseline(dir, opts);
  }
};

const Change* changeAt(const CheckReport& r, const std::string& path) {
  auto it = std::find_if(r.changes.begin(), r.changes.end(), [&](const Change& c) { return c.path == path; });
  return it == r.changes.end() ? nullptr : &*it;
}

CheckPolicy reviewer() {
  CheckPolicy p;
  p.role = lw::Role::Reviewer;
  p.runId = "run-1";
  p.stepName = "security";
  return p;
}

CheckPolicy author() {
  CheckPolicy p;
  p.role = lw::Role::Author;
  p.writableGlobs = {"**"};
  p.runId = "run-1";
  p.stepName = "fix";
  return p;
}

}  // namespace

TEST_CASE("verify worktree: the baseline knows a linked worktree's own git directory and index" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Linked wt;
  auto b = wt.baseline();
  REQUIRE(b.ok());
  CHECK(b->repoPath == b->gitDir + "/worktrees/linked");
  CHECK(b->indexFile == "worktrees/linked/index");
  const BaselineEntry* link = b->find(Area::WorkTree, ".git");
  REQUIRE(link != nullptr);
  CHECK(link->origin == Origin::Git);
  CHECK(link->source == ContentSource::Store);
  CHECK(b->refs.front().target == "ref: refs/heads/linked");
}

TEST_CASE("verify worktree: git status in a linked worktree changes nothing a reviewer is blamed for" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Linked wt;
  REQUIRE(wt.sh("touch -d 2020-01-01 a.txt dir/b.txt") == 0);  // the index stat cache goes stale
  auto b = wt.baseline();
  REQUIRE(b.ok());
  REQUIRE(wt.sh("git status --porcelain >/dev/null") == 0);
  auto r = check(*b, reviewer());
  REQUIRE(r.ok());
  const Change* index = changeAt(*r, "worktrees/linked/index");
  REQUIRE(index != nullptr);  // the refresh happened, so the test shows it is tolerated
  CHECK(index->category == Category::Index);
  CHECK(index->benign);
  CHECK(r->ok());
}

namespace {

// The step replaces the worktree's .git file by `script`; the check must
// name .git (a config change of `kind`) and put the worktree back byte for
// byte. Returns the report for what else a case looks at.
CheckReport caughtAndUndone(const Linked& wt, const std::string& script, ChangeKind kind) {
  auto worktreeBefore = lw::test::snapshotBytes(wt.dir);
  auto b = wt.baseline();
  REQUIRE(b.ok());
  REQUIRE(wt.sh(script) == 0);
  CheckPolicy p = reviewer();
  p.restore = true;
  auto r = check(*b, p);
  REQUIRE(r.ok());
  CHECK(r->violation == lw::ErrorCode::ReadOnlyViolation);
  const Change* link = changeAt(*r, ".git");
  REQUIRE(link != nullptr);
  CHECK(link->kind == kind);
  CHECK(link->category == Category::Config);
  for (const std::string& f : r->restoreFailures) MESSAGE(f);
  CHECK(r->restored);
  CHECK(lw::test::firstDifference(worktreeBefore, lw::test::snapshotBytes(wt.dir)) == "");
  return *r;
}

}  // namespace

TEST_CASE("verify worktree: a reviewer redirecting the .git file is caught and undone" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Linked wt;
  auto commonBefore = lw::test::snapshotBytes(wt.repo.dir());
  // A copy of the worktree's git directory, the same to every ref and index
  // comparison: git run later in this worktree would use whatever the step
  // put there instead.
  CheckReport r = caughtAndUndone(wt,
                                  "cp -r \"$(git rev-parse --git-dir)\" ../evil-gitdir && "
                                  "printf 'gitdir: %s\\n' \"$(cd .. && pwd)/evil-gitdir\" > .git",
                                  ChangeKind::Modified);
  CHECK(wt.sh("test \"$(git rev-parse --git-dir)\" = \"$(cd ../repo && pwd)/.git/worktrees/linked\"") == 0);
  // What the step wrote there is kept (git refuses ".git" in a tree path).
  REQUIRE(r.quarantineRef == "refs/loopwright/quarantine/run-1/security");
  CHECK(wt.sh("git cat-file -p " + r.quarantineRef + ":unrepresentable/1 | grep -q evil-gitdir") == 0);
  // The common directory gained the quarantine ref and nothing else.
  auto commonAfter = lw::test::snapshotBytes(wt.repo.dir());
  std::erase_if(commonAfter, [](const auto& kv) { return kv.first.find("loopwright") != std::string::npos; });
  std::erase_if(commonBefore, [](const auto& kv) { return kv.first.find("loopwright") != std::string::npos; });
  CHECK(lw::test::firstDifference(commonBefore, commonAfter) == "");
}

TEST_CASE("verify worktree: a .git directory put in place of the .git file is caught" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Linked wt;
  caughtAndUndone(wt, "cp -r \"$(git rev-parse --git-dir)\" ../copy && rm .git && mv ../copy .git",
                  ChangeKind::TypeChanged);
}

TEST_CASE("verify worktree: an author may write anywhere but never the .git file or the worktree's config" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  struct Case {
    const char* name;
    const char* script;
    const char* offending;
  };
  const Case cases[] = {
      {"the .git file", "printf 'gitdir: /tmp/elsewhere\\n' > .git", ".git"},
      {"config.worktree", "printf '[core]\\n\\tfsmonitor = /tmp/x\\n' > \"$(git rev-parse --git-dir)/config.worktree\"",
       "worktrees/linked/config.worktree"},
      {"where the worktree is", "printf '/tmp/elsewhere/.git\\n' > \"$(git rev-parse --git-dir)/gitdir\"",
       "worktrees/linked/gitdir"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Linked wt;
    auto b = wt.baseline();
    REQUIRE(b.ok());
    REQUIRE(wt.sh(std::string("printf 'fixed\\n' > a.txt && ") + c.script) == 0);
    auto r = check(*b, author());
    REQUIRE(r.ok());
    CHECK(r->violation == lw::ErrorCode::PathPolicyViolation);
    const Change* bad = changeAt(*r, c.offending);
    REQUIRE(bad != nullptr);
    CHECK(bad->violation == lw::ErrorCode::PathPolicyViolation);
    const Change* fine = changeAt(*r, "a.txt");
    REQUIRE(fine != nullptr);
    CHECK_FALSE(fine->violation.has_value());
  }
}

TEST_CASE("verify worktree: a step writing into its own worktree's administrative directory is caught" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  Linked wt;
  auto b = wt.baseline();
  REQUIRE(b.ok());
  REQUIRE(wt.repo.sh("printf '[core]\\n\\tfsmonitor = touch /tmp/x\\n' > .git/worktrees/linked/config.worktree") == 0);
  auto r = check(*b, author());
  REQUIRE(r.ok());
  CHECK(r->violation == lw::ErrorCode::PathPolicyViolation);
  CHECK(changeAt(*r, "worktrees/linked/config.worktree") != nullptr);
}

TEST_CASE("verify worktree: another worktree added while a step runs is reported, not ignored (fail closed)" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the other run");
  Linked wt;
  auto b = wt.baseline();
  REQUIRE(b.ok());
  REQUIRE(wt.repo.sh("git worktree add -q --detach ../other") == 0);
  auto r = check(*b, reviewer());
  REQUIRE(r.ok());
  CHECK(r->violation == lw::ErrorCode::ReadOnlyViolation);
  CHECK(changeAt(*r, "worktrees/other") != nullptr);
}
