// Steps run side by side share their baseline and, when the tree is
// unchanged, their checks; a change is still pinned on one step, quarantined
// and restored.
#include <doctest/doctest.h>

#include <latch>
#include <thread>
#include <vector>

#include "pipeline/step/step_baseline.h"
#include "pipeline_fixture.h"

using namespace lw::test;
using lw::pipeline::StepBaseline;

namespace {

lw::verify::CheckPolicy reviewer(const std::string& step) {
  lw::verify::CheckPolicy p;
  p.role = lw::Role::Reviewer;
  p.runId = "r1";
  p.stepName = step;
  p.restore = true;
  return p;
}

// Each of `n` threads asks for its check at once.
std::vector<lw::Result<lw::verify::CheckReport>> checkTogether(StepBaseline& b, int n) {
  std::vector<std::optional<lw::Result<lw::verify::CheckReport>>> got(n);
  std::vector<std::thread> threads;
  std::latch go(n);
  for (int i = 0; i < n; ++i)
    threads.emplace_back([&, i] {
      go.arrive_and_wait();
      got[i].emplace(b.check(reviewer("s" + std::to_string(i))));
    });
  for (auto& t : threads) t.join();
  std::vector<lw::Result<lw::verify::CheckReport>> out;
  for (auto& g : got) out.push_back(std::move(*g));
  return out;
}

}  // namespace

TEST_CASE("step baseline: checks asked for together share walks of an unchanged tree") {
  Scratch scratch;
  makeRepo(scratch.root / "repo", {{"a.txt", "a\n"}, {"src/b.txt", "b\n"}});
  StepBaseline b(scratch.root / "repo", scratch.root / "store");
  REQUIRE(b.get().ok());
  auto reports = checkTogether(b, 6);
  for (auto& r : reports) {
    REQUIRE(r.ok());
    CHECK(r->ok());
    CHECK(r->changes.empty());
  }
  // The first walk serves who asked first; those who asked during it share
  // the next (two walks, unless the scheduler kept some threads away).
  INFO("walks: " << b.walks());
  CHECK(b.walks() >= 1);
  CHECK(b.walks() < 6);
}

TEST_CASE("step baseline: a change found by a shared walk is pinned on one step, kept and restored") {
  Scratch scratch;
  const fs::path repo = scratch.root / "repo";
  makeRepo(repo, {{"a.txt", "a\n"}});
  StepBaseline b(repo, scratch.root / "store");
  REQUIRE(b.get().ok());
  writeFile(repo / "a.txt", "changed\n");
  writeFile(repo / "new.txt", "new\n");
  auto reports = checkTogether(b, 4);
  int violations = 0, clean = 0;
  for (auto& r : reports) {
    REQUIRE(r.ok());
    if (r->ok()) {
      ++clean;
      continue;
    }
    ++violations;
    CHECK(r->violation == lw::ErrorCode::ReadOnlyViolation);
    CHECK(r->changes.size() == 2);
    CHECK(r->restored);
    CHECK(r->quarantineRef.starts_with("refs/loopwright/quarantine/r1/s"));
  }
  CHECK(violations == 1);
  CHECK(clean == 3);
  CHECK(readFile(repo / "a.txt") == "a\n");
  CHECK_FALSE(fs::exists(repo / "new.txt"));
}
