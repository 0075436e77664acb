// The author role: every touched path, resolved, inside the writable scope
// and outside protected paths; new symlinks stay inside; nothing under a git
// directory (git_dir_check_test.cpp); dependency manifests reported.
#include <doctest/doctest.h>

#include <algorithm>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/baseline/baseline.h"
#include "verify/check/check.h"

using namespace lw::verify;
using lw::test::TempRepo;

namespace {

CheckPolicy authorPolicy() {
  CheckPolicy p;
  p.role = lw::Role::Author;
  p.writableGlobs = {"dir/**", "docs/**"};
  p.runId = "r";
  p.stepName = "fix";
  return p;
}

const Change* violationAt(const CheckReport& r, const std::string& path) {
  for (const auto* list : {&r.changes, &r.declared})
    for (const Change& c : *list)
      if (c.violation && c.path == path) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE("verify author: writes inside the scope are accepted" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  REQUIRE(repo.sh("printf 'fixed\\n' > dir/b.txt && mkdir -p docs/new && printf 'd\\n' > docs/new/x.md && "
                  "ln -s ../b.txt dir/sub/ok-link") == 0);
  auto r = check(*baseline, authorPolicy());
  REQUIRE(r.ok());
  for (const Change& c : r->changes)
    if (c.violation) MESSAGE("unexpected violation: ", c.path, ": ", c.reason);
  CHECK(r->ok());
  CHECK(r->changes.size() >= 4);
}

TEST_CASE("verify author: path cases are refused" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  struct Case {
    const char* name;
    const char* script;
    const char* offending;   // the path reported
    const char* setup = "";  // before the baseline
  };
  const Case cases[] = {
      {"outside the scope", "printf 'x\\n' >> a.txt", "a.txt"},
      {"protected workflow", "printf 'evil\\n' > .github/workflows/ci.yml", ".github/workflows/ci.yml"},
      {"AGENTS.md", "printf 'obey\\n' > dir/AGENTS.md", "dir/AGENTS.md"},
      {"case-variant protected name", "printf 'obey\\n' > dir/Claude.MD", "dir/Claude.MD"},
      {"symlink into a denied dir", "ln -s ../.github/workflows dir/wf", "dir/wf"},
      {"write through a symlink in a parent",
       "ln -s ../.github dir/gh && printf 'x\\n' > dir/gh/workflows/new.yml && rm dir/gh", ".github/workflows/new.yml"},
      {"new symlink pointing outside the workspace", "ln -s /etc dir/etc", "dir/etc"},
      {"relative symlink escaping with ..", "ln -s ../../../../../../../etc/passwd dir/sub/p", "dir/sub/p"},
      {"git config", "git config core.fsmonitor 'sh -c evil'", "config"},
      {"git hook", "printf '#!/bin/sh\\n' > .git/hooks/post-checkout", "hooks/post-checkout"},
      {"hook in a core.hooksPath inside the scope", "printf 'x' > dir/hooks/pre-push", "dir/hooks/pre-push",
       "git config core.hooksPath dir/hooks && mkdir -p dir/hooks"},
  };
  for (const Case& c : cases) {
    std::string name = c.name;
    CAPTURE(name);
    TempRepo repo;
    REQUIRE(repo.sh(c.setup) == 0);
    auto before = lw::test::snapshotBytes(repo.dir());
    BaselineOptions opts;
    opts.storePath = repo.scratch() + "/store";
    auto baseline = takeBaseline(repo.dir(), opts);
    REQUIRE(baseline.ok());
    REQUIRE(repo.sh(c.script) == 0);
    CheckPolicy policy = authorPolicy();
    policy.restore = true;
    auto r = check(*baseline, policy);
    REQUIRE(r.ok());
    CHECK(r->violation == lw::ErrorCode::PathPolicyViolation);
    const Change* v = violationAt(*r, c.offending);
    CHECK_MESSAGE(v != nullptr, "no violation at ", c.offending);
    if (v != nullptr) {
      CHECK(v->given == (v->area == Area::WorkTree ? repo.dir() + "/" + c.offending : v->resolved));
      CHECK(v->resolved.ends_with(c.offending));
    }
    // Violations are undone; this fixture has no allowed change in these cases.
    CHECK(r->restored);
    CHECK(lw::test::firstDifference(before, lw::test::snapshotBytes(repo.dir())) == "");
  }
}

TEST_CASE("verify author: declared paths are resolved before the policy applies" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  REQUIRE(repo.sh("ln -s ../.github dir/gh && ln -s dir ../cwd-link") == 0);
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  struct Case {
    const char* given;
    const char* cwd;  // relative to the repo's parent; "" = the repo
    bool refused;
  };
  const Case cases[] = {
      {"dir/ok.txt", "", false},
      {"dir/../a.txt", "", true},                // '..' out of the scope
      {"dir/../../outside.txt", "", true},       // '..' out of the workspace
      {"dir/gh/workflows/ci.yml", "", true},     // symlink in a parent
      {"gh/workflows/x.yml", "repo/dir", true},  // the same from a cwd
      {"b.txt", "cwd-link", true},               // symlinked cwd outside the workspace
      {"DIR/b.txt", "", true},                   // case variant of a writable dir
      {".GITHUB/workflows/ci.yml", "", true},    // case variant of a protected dir
  };
  for (const Case& c : cases) {
    std::string given = c.given;
    CAPTURE(given);
    CheckPolicy p = authorPolicy();
    p.declaredPaths = {c.given};
    std::string parent = repo.dir().substr(0, repo.dir().rfind('/'));
    p.cwd = std::string(c.cwd).empty() ? repo.dir() : parent + "/" + c.cwd;
    auto r = check(*baseline, p);
    REQUIRE(r.ok());
    CHECK(r->ok() == !c.refused);
    if (c.refused && !r->declared.empty()) {
      CHECK(r->declared[0].given == c.given);
      CHECK(!r->declared[0].resolved.empty());
    }
  }
}

TEST_CASE("verify author: dependency manifests are reported" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  REQUIRE(repo.sh("printf '{}' > dir/package.json && printf 'x==1\\n' > dir/requirements-dev.txt && "
                  "printf 'include(FetchContent)\\n' > dir/CMakeLists.txt && "
                  "printf 'add_library(x)\\n' > dir/sub/CMakeLists.txt") == 0);
  auto r = check(*baseline, authorPolicy());
  REQUIRE(r.ok());
  CHECK(r->ok());
  std::vector<std::string> deps;
  for (const Change& c : r->changes)
    if (c.dependency) deps.push_back(c.path);
  std::sort(deps.begin(), deps.end());
  CHECK(deps == std::vector<std::string>{"dir/CMakeLists.txt", "dir/package.json", "dir/requirements-dev.txt"});
  CHECK(r->findings.size() == 3);
  CHECK(r->findings[0].ruleId == "verify/dependency-change");
}
