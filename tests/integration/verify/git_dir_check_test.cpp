// Nothing under a git directory is writable by any step, author included:
// the repository's own .git (config, hooks, info, modules/**, worktrees/**,
// objects/info, packs, packed-refs, any new file), a submodule's gitfile and
// git directory, a nested repository's .git. Each case is played by the git
// CLI as the step, for an author whose scope is the whole workspace and for
// a reviewer; each is caught, named, and undone.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <string>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"

using namespace lw::verify;
using lw::test::TempRepo;

namespace {

// A submodule at sub/ (its git directory under .git/modules/sub) with a
// branch objects/00, a linked worktree ../wt, and an untracked nested
// repository at dir/nested.
constexpr const char* kLayout =
    "set -e\n"
    "git init -q -b main ../subsrc && git -C ../subsrc -c user.email=t@example.com -c user.name=t commit -q "
    "--allow-empty -m s\n"
    "git -c protocol.file.allow=always submodule add -q ../subsrc sub\n"
    "git commit -qm 'add sub'\n"
    "git -C sub branch objects/00\n"
    "git worktree add -q -b wt ../wt\n"
    "git init -q dir/nested\n";

struct Case {
  const char* name;
  const char* script;     // after "printf 'fixed\n' > dir/b.txt": an allowed write beside it
  const char* offending;  // the change's path (relative to its area's root)
};

const Case kCases[] = {
    {"submodule config core.fsmonitor", "git -C sub config core.fsmonitor 'touch /tmp/lw-pwned'", "modules/sub/config"},
    {"hook in a submodule", "printf '#!/bin/sh\\n' > .git/modules/sub/hooks/post-checkout",
     "modules/sub/hooks/post-checkout"},
    {"submodule gitfile redirected", "printf 'gitdir: /tmp/elsewhere\\n' > sub/.git", "sub/.git"},
    // Below modules/<name>/refs, a directory named objects holds refs, not
    // loose objects (which are not watched).
    {"a submodule branch beside one named objects/00", "git -C sub branch objects/ab",
     "modules/sub/refs/heads/objects/ab"},
    {"FETCH_HEAD", "printf '0000000000000000000000000000000000000000\\t\\tx\\n' > .git/FETCH_HEAD", "FETCH_HEAD"},
    {"description", "printf 'evil\\n' >> .git/description", "description"},
    {"a new file under .git", "printf 'x\\n' > .git/anything", "anything"},
    {"info/exclude", "printf 'a.txt\\n' >> .git/info/exclude", "info/exclude"},
    {"objects/info/alternates", "mkdir -p .git/objects/info && printf '/tmp\\n' > .git/objects/info/alternates",
     "objects/info/alternates"},
    {"a linked worktree's config", "printf '[core]\\n\\tfsmonitor = x\\n' > .git/worktrees/wt/config",
     "worktrees/wt/config"},
    {"a nested repository's config", "git -C dir/nested config core.fsmonitor 'touch /tmp/lw-pwned'",
     "dir/nested/.git/config"},
    {"a nested repository's hook", "printf '#!/bin/sh\\n' > dir/nested/.git/hooks/pre-commit",
     "dir/nested/.git/hooks/pre-commit"},
    {"a .git directory made in the tree", "mkdir -p dir/sub/.git && printf '[core]\\n' > dir/sub/.git/config",
     "dir/sub/.git"},
    {"packed-refs", "git pack-refs --all", "packed-refs"},
    {"a file in objects/pack", "printf 'x' > .git/objects/pack/pack-evil.keep", "objects/pack/pack-evil.keep"},
    {"a new directory in objects", "mkdir .git/objects/incoming && printf 'x' > .git/objects/incoming/x",
     "objects/incoming"},
    {"gc.pid written by the step", "printf '1 host\\n' > .git/gc.pid", "gc.pid"},
    {"commit-graph written by the step", "git commit-graph write --reachable", "objects/info/commit-graph"},
    {"git add", "git add dir/b.txt", "index"},
    {"git commit", "git commit -qam work", "refs/heads/main"},
};

const Change* changeAt(const CheckReport& r, const std::string& path) {
  auto it = std::find_if(r.changes.begin(), r.changes.end(), [&](const Change& c) { return c.path == path; });
  return it == r.changes.end() ? nullptr : &*it;
}

CheckPolicy policyFor(lw::Role role) {
  CheckPolicy p;
  p.role = role;
  p.writableGlobs = {"**"};  // `writable: ["."]`: the whole workspace
  p.runId = "run-1";
  p.stepName = "step";
  p.restore = true;
  return p;
}

void caughtAndUndone(lw::Role role, const Case& c) {
  TempRepo repo;
  REQUIRE(repo.sh(kLayout) == 0);
  auto before = lw::test::snapshotBytes(repo.dir());
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  REQUIRE(repo.sh(std::string("set -e\nprintf 'fixed\\n' > dir/b.txt\n") + c.script) == 0);
  auto r = check(*baseline, policyFor(role));
  REQUIRE(r.ok());
  const lw::ErrorCode expected =
      role == lw::Role::Author ? lw::ErrorCode::PathPolicyViolation : lw::ErrorCode::ReadOnlyViolation;
  CHECK(r->violation == expected);
  const Change* bad = changeAt(*r, c.offending);
  if (bad == nullptr) {
    for (const Change& ch : r->changes) MESSAGE("seen: ", toString(ch.area), ":", ch.path);
    CHECK_MESSAGE(false, "no change at ", std::string(c.offending));
    return;
  }
  CHECK(bad->violation == expected);
  if (role == lw::Role::Author) {
    // The reason names the path; the error's hint says what an author may do instead.
    CHECK(bad->reason.find(c.offending) != std::string::npos);
    CHECK(bad->reason.find("nothing under a git directory is writable by any step") != std::string::npos);
    CHECK(toError(*r).hint.starts_with("author steps change the working tree only; loopwright makes the patch"));
    const Change* fine = changeAt(*r, "dir/b.txt");
    REQUIRE(fine != nullptr);
    CHECK_FALSE(fine->violation.has_value());
    REQUIRE(repo.sh("printf 'beta\\n' > dir/b.txt") == 0);  // the allowed write, undone by hand
  }
  for (const std::string& f : r->restoreFailures) MESSAGE(f);
  CHECK(r->restored);
  CHECK(lw::test::firstDifference(before, lw::test::snapshotBytes(repo.dir())) == "");
}

}  // namespace

TEST_CASE("verify git dir: an author writing anything under a git directory is refused and undone" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  for (const Case& c : kCases) {
    std::string name = c.name;
    CAPTURE(name);
    caughtAndUndone(lw::Role::Author, c);
  }
}

TEST_CASE("verify git dir: a reviewer writing anything under a git directory is refused and undone" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  for (const Case& c : kCases) {
    std::string name = c.name;
    CAPTURE(name);
    caughtAndUndone(lw::Role::Reviewer, c);
  }
}

TEST_CASE("verify git dir: an author's symlink into a git directory is refused" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  REQUIRE(repo.sh("ln -s ../.git/config dir/cfg") == 0);
  auto r = check(*baseline, policyFor(lw::Role::Author));
  REQUIRE(r.ok());
  const Change* bad = changeAt(*r, "dir/cfg");
  REQUIRE(bad != nullptr);
  CHECK(bad->violation == lw::ErrorCode::PathPolicyViolation);
  CHECK(bad->reason.find(".git/config") != std::string::npos);
}

TEST_CASE("verify git dir: a declared path inside a .git is refused whatever the scope" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  REQUIRE(repo.sh("ln -s ../.git/hooks dir/h") == 0);
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  for (const char* given :
       {".git/config", "dir/../.git/hooks/pre-commit", "dir/h/pre-push", "sub/.git", ".GIT/config"}) {
    CAPTURE(given);
    CheckPolicy p = policyFor(lw::Role::Author);
    p.restore = false;
    p.declaredPaths = {given};
    auto r = check(*baseline, p);
    REQUIRE(r.ok());
    CHECK(r->violation == lw::ErrorCode::PathPolicyViolation);
    REQUIRE(r->declared.size() == 1);
    CHECK(r->declared[0].given == given);
  }
}

TEST_CASE("verify git dir: an author's git status and git diff are not a violation" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  REQUIRE(repo.sh("touch -d 2020-01-01 a.txt dir/b.txt") == 0);  // the index stat cache goes stale
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  REQUIRE(repo.sh("printf 'fixed\\n' > dir/b.txt && git status --porcelain && git diff --stat") == 0);
  auto r = check(*baseline, policyFor(lw::Role::Author));
  REQUIRE(r.ok());
  for (const Change& c : r->changes)
    if (c.violation) MESSAGE("refused: ", c.path, ": ", c.reason);
  CHECK(r->ok());
  // git status did rewrite the index: its stat cache, nothing a step decides.
  const Change* index = changeAt(*r, "index");
  REQUIRE(index != nullptr);
  CHECK(index->benign);
}

TEST_CASE("verify git dir: a baseline store inside the repository is refused" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to make the repository");
  TempRepo repo;
  for (std::string store : {repo.dir() + "/.git/lw-store", repo.dir() + "/dir/store", repo.dir() + "/new.store"}) {
    CAPTURE(store);
    BaselineOptions options;
    options.storePath = store;
    auto b = takeBaseline(repo.dir(), options);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().code == lw::ErrorCode::UsageError);
    CHECK(b.error().message.find("is inside the repository") != std::string::npos);
    CHECK(access(store.c_str(), F_OK) != 0);
  }
  BaselineOptions outside;
  outside.storePath = repo.scratch() + "/store";
  CHECK(takeBaseline(repo.dir(), outside).ok());
}
