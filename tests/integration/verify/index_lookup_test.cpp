// The baseline finds every path's index entry whatever the index looks like:
// ordered case-insensitively, holding a conflict's stages instead of stage
// 0, or a submodule's gitlink. A path it failed to find would be taken for
// untracked (hashed, stored, and restored as such) instead of checked
// against the index.
#include <doctest/doctest.h>

#include <string>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"

using namespace lw::verify;
using lw::test::TempRepo;

namespace {

// Timestamps well before the index's, refreshed into it: every tracked
// file's stat then matches its index entry and none is racy.
const char* kSettle = "touch -h -d 2020-01-01 $(git ls-files) && git update-index -q --unmerged --refresh";

Baseline settledBaseline(const TempRepo& repo) {
  REQUIRE(repo.sh(kSettle) == 0);
  BaselineOptions opts;
  opts.storePath = repo.scratch() + "/store";
  opts.racyWindowNs = 0;
  auto baseline = takeBaseline(repo.dir(), opts);
  if (!baseline.ok()) FAIL(baseline.error().message);
  return std::move(baseline).value();
}

const BaselineEntry& entryAt(const Baseline& b, const std::string& path) {
  const BaselineEntry* e = b.find(Area::WorkTree, path);
  if (e == nullptr) FAIL("no baseline entry for ", path);
  return *e;
}

// A reviewer's step that changes `script`'s way is caught and undone exactly.
void caughtAndRestored(const TempRepo& repo, const Baseline& baseline, const std::string& script,
                       const std::string& changedPath) {
  auto before = lw::test::snapshotBytes(repo.dir());
  REQUIRE(repo.sh(script) == 0);
  CheckPolicy policy;
  policy.runId = "run-1";
  policy.stepName = "review";
  policy.restore = true;
  auto report = check(baseline, policy);
  REQUIRE(report.ok());
  CHECK(report->violation == lw::ErrorCode::ReadOnlyViolation);
  bool named = false;
  for (const Change& c : report->changes) named = named || c.path == changedPath;
  CHECK(named);
  CHECK(report->restored);
  CHECK(lw::test::firstDifference(before, lw::test::snapshotBytes(repo.dir())) == "");
}

}  // namespace

TEST_CASE("verify index lookup: a case-insensitive index is searched exactly" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to build the repository");
  TempRepo repo;
  // With core.ignorecase libgit2 keeps "alpha" before "Beta" before "dir";
  // byte order puts every capital first.
  REQUIRE(repo.sh("git config core.ignorecase true && mkdir Beta && printf 'x\\n' > Beta/x.txt && "
                  "printf 'z\\n' > Zeta.txt && printf 'y\\n' > alpha.txt && "
                  "git add Beta Zeta.txt alpha.txt && "
                  "git commit -qm case") == 0);
  const Baseline baseline = settledBaseline(repo);
  for (const char* path : {"Zeta.txt", "Beta/x.txt", "alpha.txt", "a.txt", "dir/sub/c.txt", "run.sh"}) {
    CAPTURE(path);
    CHECK(entryAt(baseline, path).origin == Origin::Tracked);
    CHECK(entryAt(baseline, path).source == ContentSource::Blob);
  }
  CHECK(entryAt(baseline, "Beta").origin == Origin::Tracked);
  CHECK(entryAt(baseline, "notes.txt").origin == Origin::Untracked);
  CHECK(entryAt(baseline, "ignored/cache.bin").origin == Origin::Ignored);

  CheckPolicy untouched;
  auto clean = check(baseline, untouched);
  REQUIRE(clean.ok());
  CHECK(clean->ok());
  caughtAndRestored(repo, baseline, "printf 'changed\\n' > Zeta.txt", "Zeta.txt");
}

TEST_CASE("verify index lookup: a conflicted path is tracked, its content kept without stage 0" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to build the repository");
  TempRepo repo;
  REQUIRE(repo.sh("git checkout -q -b theirs HEAD~1 && printf 'theirs\\n' > a.txt && "
                  "git commit -qam theirs && git checkout -q main && "
                  "! git merge -q theirs >/dev/null 2>&1 && test -n \"$(git ls-files -u a.txt)\"") == 0);
  const Baseline baseline = settledBaseline(repo);
  const BaselineEntry& conflicted = entryAt(baseline, "a.txt");
  CHECK(conflicted.origin == Origin::Tracked);
  CHECK(conflicted.source == ContentSource::Store);  // no stage-0 blob to compare with
  CHECK(entryAt(baseline, "dir/b.txt").source == ContentSource::Blob);

  SUBCASE("resolving it in the working tree") {
    caughtAndRestored(repo, baseline, "printf 'resolved\\n' > a.txt", "a.txt");
  }
  SUBCASE("resolving it in the index") { caughtAndRestored(repo, baseline, "git add a.txt", "index"); }
}

TEST_CASE("verify index lookup: a submodule's gitlink is tracked, its files budgeted like ignored ones" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to build the repository");
  TempRepo repo;
  REQUIRE(repo.sh("mkdir sub && cd sub && git init -q && git config user.email t@example.com && "
                  "git config user.name test && printf 's\\n' > s.txt && git add -A && "
                  "git commit -qm s && cd .. && git add sub 2>/dev/null && git commit -qm sub && "
                  "test \"$(git ls-files -s sub | cut -c1-6)\" = 160000") == 0);
  const Baseline baseline = settledBaseline(repo);
  CHECK(entryAt(baseline, "sub").origin == Origin::Tracked);
  CHECK(entryAt(baseline, "sub/s.txt").origin == Origin::Ignored);
  CHECK(entryAt(baseline, "dir/sub").origin == Origin::Tracked);  // a plain directory of that name
  caughtAndRestored(repo, baseline, "printf 'poisoned\\n' > sub/s.txt", "sub/s.txt");
}
