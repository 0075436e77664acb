// Repositories in a format libgit2 1.5 cannot read fail verification closed,
// with an error that names what is unreadable and what git can do about it:
// verification that cannot run must not look like a broken installation.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"

using namespace lw::verify;
using lw::test::TempRepo;

namespace {

struct Layout {
  const char* name;
  const char* make;    // a git command leaving a repository libgit2 1.5 cannot read
  const char* hinted;  // what the error's hint must name
};

// The error of a baseline of a fresh repository after `l.make`.
lw::Error unreadable(const TempRepo& repo, const Layout& l) {
  REQUIRE(repo.sh(l.make) == 0);
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE_FALSE(baseline.ok());
  CHECK(baseline.error().code == lw::ErrorCode::IoError);
  CHECK(baseline.error().hint.find(l.hinted) != std::string::npos);
  return baseline.error();
}

}  // namespace

TEST_CASE("verify repository format: an index libgit2 cannot read fails the baseline with what git can do about it" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to build the repository");
  const Layout layouts[] = {
      {"split index", "git update-index --split-index", "git update-index --no-split-index"},
      {"sparse index", "git sparse-checkout init --cone --sparse-index && git sparse-checkout set dir",
       "git sparse-checkout init --no-sparse-index"},
      {"damaged index", "printf 'DIRC garbage' > .git/index", "git status"},
  };
  for (const Layout& l : layouts) {
    CAPTURE(l.name);
    TempRepo repo;
    CHECK(unreadable(repo, l).message.find("cannot read the index") != std::string::npos);
    if (std::string_view(l.name) == "damaged index") continue;
    // Doing what the hint says makes the repository verifiable.
    REQUIRE(repo.sh(l.hinted) == 0);
    auto again = lw::test::baselineOf(repo);
    REQUIRE(again.ok());
    CheckPolicy untouched;
    auto report = check(*again, untouched);
    REQUIRE(report.ok());
    CHECK(report->ok());
  }
}

TEST_CASE("verify repository format: a repository libgit2 cannot open says which extension and what to do" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to build the repository");
  const Layout layouts[] = {
      // What `git clone --filter=blob:none` (actions/checkout's `filter:`) leaves.
      {"partial clone", "git config core.repositoryformatversion 1 && git config extensions.partialclone origin",
       "without --filter"},
      {"SHA-256 object ids", "git config core.repositoryformatversion 1 && git config extensions.objectformat sha256",
       "SHA-256"},
      {"unknown extension", "git config core.repositoryformatversion 1 && git config extensions.futurething true",
       "extensions.futurething"},
  };
  for (const Layout& l : layouts) {
    CAPTURE(l.name);
    TempRepo repo;
    CHECK(unreadable(repo, l).hint.find("pass --repo") == std::string::npos);
  }
}
