// Author worktrees under leases (docs/author-steps.md): two runs on one
// repository never share one, and a crashed run's worktree is reclaimed only
// once its lease expired, leaving nothing in the checkout.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>

#include "integration/pipeline/pipeline_fixture.h"
#include "lease/local_store.h"
#include "pipeline/author/author_worktree.h"
#include "support/tree_snapshot.h"
#include "verify/git/worktree.h"

using namespace lw;
using namespace lw::test;

namespace {

EffectiveStep authorStep(const std::string& name) {
  EffectiveStep s;
  s.stage = "s";
  s.step = name;
  s.role = Role::Author;
  return s;
}

std::string headOf(const fs::path& repo) { return verify::headCommit(repo).value(); }

}  // namespace

TEST_CASE("author worktree: two runs on one repository get two worktrees, and one plan is claimed once" *
          doctest::test_suite("integration")) {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{"a.txt", "a\n"}});
  const TreeSnapshot before = snapshotTree(repo);
  auto store = lease::openLocalStore(s.root / "state/leases");
  auto planA = pipeline::planWorktree(s.root / "state", "100-1-job-11", authorStep("fix"), 11);
  auto planB = pipeline::planWorktree(s.root / "state", "100-1-job-12", authorStep("fix"), 12);
  CHECK(planA.path != planB.path);
  CHECK(planA.resource == "worktree.100-1-job-11.s.fix");
  auto a = pipeline::AuthorWorktree::open(*store, planA, repo, headOf(repo));
  auto b = pipeline::AuthorWorktree::open(*store, planB, repo, headOf(repo));
  REQUIRE(a);
  REQUIRE(b);
  CHECK(readFile((*a)->tree().path / "a.txt") == "a\n");
  CHECK(readFile((*b)->tree().path / "a.txt") == "a\n");
  writeFile((*a)->tree().path / "a.txt", "run A\n");
  CHECK(readFile((*b)->tree().path / "a.txt") == "a\n");
  // Detached: no branch names either worktree.
  CHECK(capture("git -C '" + repo.string() + "' branch --list | wc -l") == "1\n");
  CHECK(capture("git -C '" + (*a)->tree().path.string() + "' rev-parse --abbrev-ref HEAD") == "HEAD\n");

  auto again = pipeline::AuthorWorktree::open(*store, planA, repo, headOf(repo));
  REQUIRE_FALSE(again);
  CHECK(again.error().code == ErrorCode::LeaseUnavailable);

  CHECK((*a)->teardown());
  CHECK((*b)->teardown());
  CHECK_FALSE(fs::exists(planA.path));
  CHECK_FALSE(fs::exists(planB.path));
  const auto changed = treeDifferences(before, snapshotTree(repo));
  for (const std::string& path : changed) CHECK_MESSAGE(false, "changed in the checkout: " << path);
}

TEST_CASE("author worktree: a crashed run's worktree is reclaimed only after its lease expired" *
          doctest::test_suite("integration")) {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{"a.txt", "a\n"}});
  const TreeSnapshot before = snapshotTree(repo);
  static std::atomic<std::int64_t> nowMs{1'000'000};
  auto clock = [] { return nowMs.load(); };
  auto plan = pipeline::planWorktree(s.root / "state", "200-1-job-7", authorStep("fix"), 7);

  // The run that crashes: claims and creates, then dies without a teardown.
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    auto store = lease::openLocalStore(s.root / "state/leases", clock);
    auto wt = pipeline::AuthorWorktree::open(*store, plan, repo, headOf(repo));
    ::_exit(wt ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(fs::exists(plan.path / "a.txt"));

  auto store = lease::openLocalStore(s.root / "state/leases", clock);
  nowMs += plan.ttl.count() - 1;  // the lease's last millisecond
  CHECK(pipeline::reclaimExpiredWorktrees(*store, s.root / "state", "next run").empty());
  CHECK(fs::exists(plan.path / "a.txt"));
  CHECK(fs::exists(repo / ".git/worktrees" / plan.name));

  nowMs += 1;  // expired
  auto notes = pipeline::reclaimExpiredWorktrees(*store, s.root / "state", "next run");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "reclaimed the worktree " + plan.path.string() + " of an earlier run (its lease expired)");
  CHECK_FALSE(fs::exists(plan.path));
  CHECK_FALSE(fs::exists(plan.record));
  CHECK(treeDifferences(before, snapshotTree(repo)).empty());
  auto leases = store->list();
  REQUIRE(leases);
  REQUIRE(leases->size() == 1);
  CHECK((*leases)[0].phase == lease::Phase::Free);
}
