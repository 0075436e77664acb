// Git's own background gc (`git gc --auto` detaches after a checkout, fetch
// or commit) rewrites packs, commit-graph, objects/info/packs and
// packed-refs. The baseline waits for it to end, says so, and fails rather
// than walk a repository git is still rewriting; a step writing the same
// files is still caught (git_dir_check_test.cpp).
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <boost/json/object.hpp>

#include "integration/verify/repo_fixture.h"
#include "support/host_requirement.h"
#include "verify/baseline/baseline.h"
#include "verify/baseline/baseline_json.h"
#include "verify/check/check.h"

using namespace lw::verify;
using lw::test::TempRepo;
using namespace std::chrono_literals;

namespace {

bool exists(const std::string& path) {
  struct stat s {};
  return ::stat(path.c_str(), &s) == 0;
}

// Polls until `path` exists (`present`) or is gone; false when `limit` passes first.
bool waitFor(const std::string& path, bool present, std::chrono::milliseconds limit) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (exists(path) != present) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

// Enough reachable loose objects that a gc takes a second or more.
constexpr const char* kManyLooseObjects = R"(set -e
{ seq 1 12000 | awk '{printf "blob\nmark :%d\ndata %d\nblob number %d\n\n", $1, length("blob number " $1)+1, $1}'
  printf 'commit refs/heads/bulk\ncommitter t <t@example.com> 0 +0000\ndata 5\nbulk\n'
  seq 1 12000 |
    awk '{printf "M 100644 :%d bulk/%d/%d.txt\n", $1, $1%100, $1}'
  echo; } | git fast-import --quiet
mkdir ../packs && mv .git/objects/pack/pack-* ../packs/
for p in ../packs/*.pack; do git unpack-objects -q < "$p"; done
)";

std::int64_t readPid(const std::string& file) {
  std::ifstream in(file);
  std::int64_t pid = 0;
  in >> pid;
  return pid;
}

// What a checkout leaves behind: gc --auto, detached (gc.autoDetach), on
// enough loose objects to run for about a second. Returns its pid.
std::int64_t startDetachedGc(TempRepo& repo) {
  REQUIRE(repo.sh(kManyLooseObjects) == 0);
  const std::string gcPid = repo.dir() + "/.git/gc.pid";
  REQUIRE(repo.sh("git -c gc.auto=1 -c gc.autoDetach=true gc --auto --quiet") == 0);
  REQUIRE_MESSAGE(waitFor(gcPid, true, 10s), "the detached git gc never wrote gc.pid");
  return readPid(gcPid);
}

}  // namespace

TEST_CASE("verify maintenance: a git gc left running by the checkout is waited for, not blamed on the step" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to run git gc");
  TempRepo repo;
  const std::string gcPid = repo.dir() + "/.git/gc.pid";
  const std::int64_t pid = startDetachedGc(repo);

  auto baseline = lw::test::baselineOf(repo);
  REQUIRE(baseline.ok());
  // Whatever the baseline did, the check below runs after the gc ended.
  REQUIRE(waitFor(gcPid, false, 120s));

  // The step did nothing: nothing is reported.
  CheckPolicy reviewer;
  reviewer.role = lw::Role::Reviewer;
  reviewer.runId = "run";
  reviewer.stepName = "review";
  auto report = check(*baseline, reviewer);
  REQUIRE(report.ok());
  for (const Change& c : report->changes)
    if (c.violation) MESSAGE("blamed on the step: ", toString(c.area), ":", c.path, " ", toString(c.kind));
  CHECK(report->ok());

  // The baseline and the record say why it took longer.
  REQUIRE(baseline->maintenanceWaits.size() == 1);
  CHECK(baseline->maintenanceWaits[0].pid == pid);
  CHECK(baseline->maintenanceWaits[0].pidFile == baseline->gitDir + "/gc.pid");
  MESSAGE("waited for git gc: ", baseline->maintenanceWaits[0].waitedMs, " ms");
  auto json = toJson(*report, *baseline).as_object();
  REQUIRE(json.contains("gitMaintenanceWaited"));
  CHECK(json.at("gitMaintenanceWaited").as_array().size() == 1);
  // `verify snapshot` and `verify check` in two processes keep it too.
  const std::string file = repo.scratch() + "/baseline.json";
  REQUIRE(saveBaseline(*baseline, file).ok());
  auto loaded = loadBaseline(file);
  REQUIRE(loaded.ok());
  REQUIRE(loaded->maintenanceWaits.size() == 1);
  CHECK(loaded->maintenanceWaits[0].pid == pid);
  CHECK(loaded->maintenanceWaits[0].waitedMs == baseline->maintenanceWaits[0].waitedMs);
}

TEST_CASE("verify maintenance: a git gc still running after the timeout fails the baseline, naming its pid" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed to run git gc");
  TempRepo repo;
  const std::string gcPid = repo.dir() + "/.git/gc.pid";
  const std::int64_t pid = startDetachedGc(repo);

  BaselineOptions opts;
  opts.storePath = repo.scratch() + "/store";
  opts.maintenanceTimeout = 50ms;  // a gc of this repository takes ~1 s
  auto started = std::chrono::steady_clock::now();
  auto baseline = takeBaseline(repo.dir(), opts);
  auto took = std::chrono::steady_clock::now() - started;
  bool gcStillRan = exists(gcPid);
  REQUIRE(waitFor(gcPid, false, 120s));  // git's own; left to finish
  REQUIRE_MESSAGE(gcStillRan, "git gc ended within the timeout: nothing was shown");

  REQUIRE_FALSE(baseline.ok());
  CHECK(baseline.error().code == lw::ErrorCode::IoError);
  CHECK(baseline.error().message.find("pid " + std::to_string(pid)) != std::string::npos);
  CHECK(baseline.error().subject.ends_with("/.git/gc.pid"));
  CHECK(baseline.error().hint.find("kill " + std::to_string(pid)) != std::string::npos);
  CHECK(took < 5s);
}

TEST_CASE("verify maintenance: a gc.pid naming no running git here is not waited for" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lw::test::haveGit(), "the git CLI is needed");
  TempRepo repo;
  // A git that runs but is not a gc: the pid in a left-over gc.pid was reused.
  pid_t other = 0;
  SUBCASE("a git that is not gc") {
    REQUIRE(repo.sh("sleep 5 | git cat-file --batch >/dev/null &\n"
                    "echo $! > ../git.pid\n"
                    "printf '%s %s' \"$(cat ../git.pid)\" \"$(uname -n)\" > .git/gc.pid") == 0);
    other = static_cast<pid_t>(readPid(repo.dir() + "/../git.pid"));
  }
  SUBCASE("a process that is not git") {
    REQUIRE(repo.sh("printf '%s %s' $$ \"$(uname -n)\" > .git/gc.pid") == 0);  // the shell, gone or not git
  }
  SUBCASE("another host") { REQUIRE(repo.sh("printf '1 elsewhere.invalid' > .git/gc.pid") == 0); }
  SUBCASE("stale") {
    REQUIRE(repo.sh("printf '1 %s' \"$(uname -n)\" > .git/gc.pid && touch -d '13 hours ago' .git/gc.pid") == 0);
  }
  BaselineOptions opts;
  opts.storePath = repo.scratch() + "/store";
  opts.maintenanceTimeout = 100ms;
  auto baseline = takeBaseline(repo.dir(), opts);
  if (other > 0) ::kill(other, SIGKILL);
  REQUIRE(baseline.ok());
  CHECK(baseline->maintenanceWaits.empty());
}
