// Every way a reviewer can change a repository is detected, kept under the
// quarantine ref, and undone byte for byte (docs/verification.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"
#include "verify/git/libgit2.h"

using namespace lw::verify;
using lw::test::TempRepo;

namespace {

struct Case {
  const char* name;
  const char* script;
  Category category;  // at least one change has it
};

const Case kCases[] = {
    {"modify tracked", "printf 'x\\n' >> a.txt", Category::WorkTree},
    {"modify tracked, same size", "printf 'ALPHA\\n' > dir/b.txt; printf 'BETA\\n' > dir/b.txt", Category::WorkTree},
    {"add untracked", "printf 'n\\n' > new.txt", Category::WorkTree},
    {"modify untracked", "printf 'changed\\n' > notes.txt", Category::WorkTree},
    {"add ignored", "printf 'i\\n' > ignored/new.bin; printf 'l\\n' > other.log", Category::WorkTree},
    {"modify ignored", "printf 'poisoned\\n' > ignored/deep/x.bin", Category::WorkTree},
    {"delete ignored dir", "rm -rf ignored", Category::WorkTree},
    {"delete tracked", "rm dir/b.txt", Category::WorkTree},
    {"delete directory", "rm -rf dir", Category::WorkTree},
    {"chmod", "chmod +x a.txt", Category::WorkTree},
    {"chmod directory", "chmod 700 dir", Category::WorkTree},
    {"commit", "printf 'c\\n' >> a.txt && git commit -qam c", Category::Ref},
    {"amend", "git commit -q --amend -m amended", Category::Ref},
    {"reset", "git reset -q --hard HEAD~1", Category::Ref},
    {"new branch", "git branch feature", Category::Ref},
    {"delete packed branch", "git branch -D old", Category::Ref},
    {"tag", "git tag v9", Category::Ref},
    {"stash", "printf 's\\n' >> a.txt && git stash -q", Category::Ref},
    {"detach HEAD", "git checkout -q --detach HEAD~1", Category::Ref},
    {"edit index only", "git update-index --chmod=+x a.txt", Category::Index},
    {"unstage in index", "git rm -q --cached dir/b.txt", Category::Index},
    {"edit .git/config", "git config core.editor vim", Category::Config},
    {"add a hook", "printf '#!/bin/sh\\nexit 0\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
     Category::Hook},
    {"change core.hooksPath", "git config core.hooksPath .githooks", Category::Config},
    {"info/exclude", "printf 'a.txt\\n' >> .git/info/exclude", Category::Info},
    {"alternates", "mkdir -p .git/objects/info && printf '/tmp\\n' > .git/objects/info/alternates", Category::Info},
    {"symlink replaces file", "rm a.txt && ln -s /etc/passwd a.txt", Category::WorkTree},
    {"symlink replaces directory", "rm -rf dir && ln -s /etc dir", Category::WorkTree},
    {"retarget symlink", "ln -sfn /etc/shadow link-to-b", Category::WorkTree},
    {"fifo", "mkfifo pipe", Category::WorkTree},
    {"a .git directory further down", "mkdir -p dir/.git && printf '[core]\\n' > dir/.git/config", Category::Config},
};

// A reviewer's check that keeps the changes under
// refs/loopwright/quarantine/run-1/security and restores the repository.
CheckPolicy quarantiningReviewer() {
  CheckPolicy policy;
  policy.role = lw::Role::Reviewer;
  policy.runId = "run-1";
  policy.stepName = "security";
  policy.restore = true;
  return policy;
}

// The baseline of `repo`, taken before `step` (a shell script) plays the step.
Baseline baselineThen(const TempRepo& repo, const std::string& step) {
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  REQUIRE(repo.sh(step) == 0);
  return std::move(baseline).value();
}

bool hasCategory(const CheckReport& r, Category c) {
  return std::any_of(r.changes.begin(), r.changes.end(), [&](const Change& ch) { return ch.category == c; });
}

}  // namespace

TEST_CASE("verify reviewer: every kind of change is detected, quarantined and restored exactly" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  for (std::int64_t racyWindow : {std::int64_t{0}, std::int64_t{2'000'000'000}}) {
    for (const Case& c : kCases) {
      std::string name = c.name;
      CAPTURE(name);
      CAPTURE(racyWindow);
      TempRepo repo;
      auto before = lw::test::snapshotBytes(repo.dir());
      BaselineOptions opts;
      opts.storePath = repo.scratch() + "/store";
      opts.racyWindowNs = racyWindow;
      auto baseline = takeBaseline(repo.dir(), opts);
      if (!baseline.ok()) FAIL(baseline.error().message);

      REQUIRE(repo.sh(c.script) == 0);
      CheckPolicy policy = quarantiningReviewer();
      auto report = check(*baseline, policy);
      REQUIRE(report.ok());
      CHECK(report->violation == lw::ErrorCode::ReadOnlyViolation);
      CHECK(report->violations == static_cast<std::size_t>(std::count_if(report->changes.begin(), report->changes.end(),
                                                                         [](const Change& ch) { return !ch.benign; })));
      CHECK(hasCategory(*report, c.category));
      CHECK(report->quarantineRef == "refs/loopwright/quarantine/run-1/security");
      for (const std::string& f : report->restoreFailures) MESSAGE(f);
      CHECK(report->restored);
      CHECK(lw::test::firstDifference(before, lw::test::snapshotBytes(repo.dir())) == "");

      // Nothing is left to find but the quarantine ref itself.
      policy.restore = false;
      auto again = check(*baseline, policy);
      REQUIRE(again.ok());
      for (const Change& ch : again->changes) {
        bool ours = ch.path.starts_with("refs/loopwright");
        if (!ours) MESSAGE("left: ", ch.path, " ", toString(ch.kind));
        CHECK(ours);
      }
      CHECK(repo.sh("git cat-file -e refs/loopwright/quarantine/run-1/security:CHANGES") == 0);
    }
  }
}

TEST_CASE("verify reviewer: a reviewer running git status, diff and log changes nothing" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  REQUIRE(repo.sh("touch -d 2020-01-01 a.txt dir/b.txt") == 0);  // make the index stat cache stale
  const Baseline baseline =
      baselineThen(repo, "git status --porcelain >/dev/null && git diff >/dev/null && git log >/dev/null");
  CheckPolicy policy;
  auto report = check(baseline, policy);
  REQUIRE(report.ok());
  for (const Change& ch : report->changes) {
    if (!ch.benign) MESSAGE("unexpected: ", ch.path);
    CHECK(ch.benign);
  }
  // The refresh really happened, so the test shows it is tolerated.
  CHECK(report->changes.size() == 1);
  CHECK(report->ok());
}

TEST_CASE("verify reviewer: ignored files over the capture budget are detected, not restorable" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  BaselineOptions opts;
  opts.storePath = repo.scratch() + "/store";
  opts.ignoredBudgetFiles = 1;  // build.log or one of ignored/ only
  opts.racyWindowNs = 0;
  auto baseline = takeBaseline(repo.dir(), opts);
  REQUIRE(baseline.ok());
  CHECK(baseline->ignoredCapturedFiles == 1);
  CHECK(baseline->notRestorable == 2);
  REQUIRE(repo.sh("printf 'LOG\\n' > build.log && printf 'CACHE\\n' > ignored/cache.bin && "
                  "printf 'DEEP\\n' > ignored/deep/x.bin") == 0);
  CheckPolicy policy;
  policy.restore = true;
  auto report = check(*baseline, policy);
  REQUIRE(report.ok());
  CHECK(report->changes.size() == 3);
  auto notRestorable =
      std::count_if(report->changes.begin(), report->changes.end(), [](const Change& c) { return !c.restorable; });
  CHECK(notRestorable == 2);
  CHECK_FALSE(report->restored);
  CHECK(report->restoreFailures.size() == 2);
}

TEST_CASE("verify reviewer: restore never follows a symlink the step planted" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  // dir/ becomes a symlink to a directory outside; restoring dir/b.txt must
  // not write into it.
  REQUIRE(repo.sh("mkdir -p ../outside && rm -rf dir && ln -s ../outside dir") == 0);
  CheckPolicy policy;
  policy.restore = true;
  auto report = check(*baseline, policy);
  REQUIRE(report.ok());
  CHECK(report->restored);
  CHECK(repo.sh("test -z \"$(ls -A ../outside)\" && test -d dir && ! test -L dir && "
                "test \"$(cat dir/b.txt)\" = beta") == 0);
}

TEST_CASE(
    "verify reviewer: a later check against the same baseline leaves out loopwright's own "
    "quarantine refs, but not one the step moved" *
    doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  const Baseline baseline = baselineThen(repo, "printf 'x\\n' >> a.txt");
  CheckPolicy first;
  first.runId = "run";
  first.stepName = "one";
  first.restore = true;
  auto kept = check(baseline, first);
  REQUIRE(kept.ok());
  REQUIRE_FALSE(kept->quarantineRef.empty());

  CheckPolicy next;
  next.runId = "run";
  next.stepName = "two";
  next.restore = true;
  SUBCASE("as written: the next step is clean") {
    next.ownQuarantines = {{kept->quarantineRef, kept->quarantineCommit}};
    auto report = check(baseline, next);
    REQUIRE(report.ok());
    CHECK(report->ok());
    CHECK(report->changes.empty());
  }
  SUBCASE("not named as its own: the ref is a change like any other") {
    auto report = check(baseline, next);
    REQUIRE(report.ok());
    CHECK_FALSE(report->ok());
  }
  SUBCASE("moved by the next step: detected") {
    next.ownQuarantines = {{kept->quarantineRef, kept->quarantineCommit}};
    REQUIRE(repo.sh("git update-ref " + kept->quarantineRef + " HEAD") == 0);
    auto report = check(baseline, next);
    REQUIRE(report.ok());
    CHECK_FALSE(report->ok());
    CHECK(std::any_of(report->changes.begin(), report->changes.end(),
                      [&](const Change& c) { return c.path == kept->quarantineRef; }));
    // Put back where it was written, not deleted with the step's changes.
    CHECK(report->restored);
    CHECK(report->restoreFailures.empty());
    auto after = readRefs(repo.dir());
    REQUIRE(after.ok());
    CHECK(std::any_of(after->begin(), after->end(), [&](const RefState& r) {
      return r.name == kept->quarantineRef && r.target == kept->quarantineCommit;
    }));
  }
  SUBCASE("deleted by the next step: detected and put back") {
    next.ownQuarantines = {{kept->quarantineRef, kept->quarantineCommit}};
    REQUIRE(repo.sh("git update-ref -d " + kept->quarantineRef) == 0);
    auto report = check(baseline, next);
    REQUIRE(report.ok());
    CHECK_FALSE(report->ok());
    auto after = readRefs(repo.dir());
    REQUIRE(after.ok());
    CHECK(std::any_of(after->begin(), after->end(), [&](const RefState& r) {
      return r.name == kept->quarantineRef && r.target == kept->quarantineCommit;
    }));
  }
}

TEST_CASE("verify reviewer: files at paths git refuses in a tree are kept all the same" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  const Baseline baseline = baselineThen(
      repo, "mkdir -p dir/.git && printf 'evidence\\n' > dir/.git/config && printf 'plain\\n' > plain.txt");
  CheckPolicy policy = quarantiningReviewer();
  auto report = check(baseline, policy);
  REQUIRE(report.ok());
  REQUIRE(report->quarantineRef == "refs/loopwright/quarantine/run-1/security");
  CHECK(report->restored);
  const std::string ref = report->quarantineRef;
  CHECK(repo.sh("test \"$(git cat-file -p " + ref + ":unrepresentable/1)\" = evidence") == 0);
  CHECK(repo.sh("git cat-file -p " + ref +
                ":CHANGES | grep -q '^added\tconfig\tworktree:dir/.git/config\tkept as unrepresentable/1$'") == 0);
  CHECK(repo.sh("test \"$(git cat-file -p " + ref + ":worktree/plain.txt)\" = plain") == 0);
}

TEST_CASE("verify reviewer: what cannot be kept for inspection is not restored away" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  // The object database moved out of reach: no quarantine commit can be written.
  REQUIRE(repo.sh("printf 'x\\n' >> a.txt && mv .git/objects ../objects-away && ln -s /nonexistent-lw .git/objects") ==
          0);
  CheckPolicy policy;
  policy.restore = true;
  auto report = check(*baseline, policy);
  REQUIRE(report.ok());
  CHECK(report->violation == lw::ErrorCode::ReadOnlyViolation);
  CHECK(report->quarantineRef.empty());
  CHECK_FALSE(report->restored);
  REQUIRE_FALSE(report->restoreFailures.empty());
  CHECK(report->restoreFailures.front().find("nothing restored") != std::string::npos);
  // The step's change is still there to look at.
  CHECK(repo.sh("tail -n 1 a.txt | grep -qx x") == 0);
  CHECK(repo.sh("test -L .git/objects") == 0);
}

TEST_CASE("verify reviewer: names with newlines, tabs or quotes keep CHANGES one line per change" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  const Baseline baseline =
      baselineThen(repo,
                   "printf 1 > \"$(printf 'two\\nlines')\" && printf 2 > \"$(printf 'tab\\there')\" && "
                   "printf 3 > 'say \"hi\"' && printf 4 > plain.txt");
  CheckPolicy policy = quarantiningReviewer();
  auto report = check(baseline, policy);
  REQUIRE(report.ok());
  REQUIRE_FALSE(report->quarantineRef.empty());
  const std::string changes = repo.scratch() + "/CHANGES";
  REQUIRE(repo.sh("git cat-file -p " + report->quarantineRef + ":CHANGES > '" + changes + "'") == 0);
  std::ifstream in(changes);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  CHECK(lines.size() == report->changes.size());
  auto has = [&](const std::string& want) { return std::find(lines.begin(), lines.end(), want) != lines.end(); };
  CHECK(has("added\tworktree\t\"worktree:two\\nlines\""));
  CHECK(has("added\tworktree\t\"worktree:tab\\there\""));
  CHECK(has("added\tworktree\t\"worktree:say \\\"hi\\\"\""));
  CHECK(has("added\tworktree\tworktree:plain.txt"));
}

TEST_CASE("verify reviewer: the error's hint says whether the repository was put back" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  const Baseline baseline = baselineThen(repo, "printf 'x\\n' >> a.txt");
  CheckPolicy policy;
  auto looked = check(baseline, policy);
  REQUIRE(looked.ok());
  CHECK(toError(*looked).hint.find("the changes are still in place") != std::string::npos);
  policy.restore = true;
  auto undone = check(baseline, policy);
  REQUIRE(undone.ok());
  CHECK(toError(*undone).hint.find("the repository was restored to the baseline") != std::string::npos);
}
