// `loopwright verify snapshot` / `verify check` as separate processes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"

using lw::test::TempRepo;

namespace {

struct Ran {
  int status = -1;
  std::string out;
};

Ran runBin(const std::string& args) {
  Ran r;
  std::string cmd = std::string(LOOPWRIGHT_BIN) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int rc = pclose(p);
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return r;
}

}  // namespace

TEST_CASE("verify cli: snapshot, a reviewer's change, check --restore exits 5 and restores" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  auto before = lw::test::snapshotBytes(repo.dir());
  std::string base = repo.scratch() + "/baseline.json";
  Ran snap = runBin("verify snapshot --repo '" + repo.dir() + "' --out '" + base + "' --json");
  REQUIRE(snap.status == 0);
  CHECK(boost::json::parse(snap.out).at("entries").as_int64() > 10);

  Ran clean = runBin("verify check --baseline '" + base + "' --role reviewer");
  CHECK(clean.status == 0);
  CHECK(clean.out == "no changes\n");

  REQUIRE(repo.sh("printf 'x' >> a.txt && git tag evil && printf 'y' > .git/hooks/pre-push") == 0);
  Ran r = runBin("verify check --baseline '" + base + "' --role reviewer --restore --run 7 --step lint --json");
  CHECK(r.status == 5);
  auto report = boost::json::parse(r.out).as_object();
  CHECK(report.at("violation").as_string() == "READ_ONLY_VIOLATION");
  CHECK(report.at("restored").as_bool());
  CHECK(report.at("quarantine").at("ref").as_string() == "refs/loopwright/quarantine/7/lint");
  CHECK(report.at("error").at("code").as_string() == "READ_ONLY_VIOLATION");
  CHECK(lw::test::firstDifference(before, lw::test::snapshotBytes(repo.dir())) == "");
}

TEST_CASE("verify cli: author scope from --writable, offending path as given and resolved" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  std::string base = repo.scratch() + "/baseline.json";
  REQUIRE(runBin("verify snapshot --repo '" + repo.dir() + "' --out '" + base + "'").status == 0);
  REQUIRE(repo.sh("printf 'ok' > dir/new.txt") == 0);
  std::string common = "verify check --baseline '" + base + "' --role author --writable 'dir/**'";
  CHECK(runBin(common).status == 0);
  REQUIRE(repo.sh("printf 'no' > .github/workflows/x.yml") == 0);
  Ran r = runBin(common + " --json");
  CHECK(r.status == 5);
  auto report = boost::json::parse(r.out).as_object();
  CHECK(report.at("violation").as_string() == "PATH_POLICY_VIOLATION");
  bool found = false;
  for (const auto& c : report.at("changes").as_array()) {
    if (c.at("path").as_string() != ".github/workflows/x.yml") continue;
    found = true;
    CHECK(c.at("violation").as_string() == "PATH_POLICY_VIOLATION");
    CHECK(c.at("reason").as_string() == "protected path");
    CHECK(c.at("given").as_string() == repo.dir() + "/.github/workflows/x.yml");
  }
  CHECK(found);
  CHECK(runBin("verify check --baseline '" + base + "' --role nobody").status == 2);
  CHECK(runBin("verify check --baseline /nonexistent/b.json").status == 2);
}

TEST_CASE("verify cli: file names that are not UTF-8 are kept exactly and reported as valid JSON" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to play the step");
  TempRepo repo;
  // A Latin-1 name committed long ago: the baseline must round-trip it.
  REQUIRE(repo.sh("printf 'x' > \"$(printf 'caf\\351.txt')\" && git add -A && git commit -qm latin1") == 0);
  auto before = lw::test::snapshotBytes(repo.dir());
  std::string base = repo.scratch() + "/baseline.json";
  REQUIRE(runBin("verify snapshot --repo '" + repo.dir() + "' --out '" + base + "'").status == 0);
  Ran clean = runBin("verify check --baseline '" + base + "' --role reviewer");
  CHECK(clean.status == 0);
  CHECK(clean.out == "no changes\n");

  REQUIRE(repo.sh("printf 'y' > \"$(printf 'bad\\377')\" && printf 'z' >> \"$(printf 'caf\\351.txt')\"") == 0);
  Ran r = runBin("verify check --baseline '" + base + "' --role reviewer --restore --json");
  CHECK(r.status == 5);
  boost::json::value report;
  REQUIRE_NOTHROW(report = boost::json::parse(r.out));  // strict: valid UTF-8 only
  std::vector<std::string> paths;
  for (const auto& c : report.at("changes").as_array()) paths.emplace_back(c.at("path").as_string());
  CHECK(std::find(paths.begin(), paths.end(), "bad\xEF\xBF\xBD") != paths.end());
  CHECK(std::find(paths.begin(), paths.end(), "caf\xEF\xBF\xBD.txt") != paths.end());
  CHECK(report.at("restored").as_bool());
  CHECK(lw::test::firstDifference(before, lw::test::snapshotBytes(repo.dir())) == "");
}
