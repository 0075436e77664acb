// `loopwright run` of author steps with a task contract (docs/taskpack.md,
// "Task contract"): a change past maxChangedLines and one whose validate
// command fails are refused (exit 5) with the numbers and not accepted; one
// that passes validate is accepted; run.json and the summary show the
// validate run; the checkout is unchanged either way.
#include <doctest/doctest.h>

#include <pwd.h>
#include <unistd.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/tree_snapshot.h"

using namespace lw::test;

namespace {

std::map<std::string, std::string> authorHost(const fs::path& scratch) {
  writeFile(scratch / "host.yaml", "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nstateDir: " +
                                       (scratch / "state").string() + "\nfloor: {allowDirectDedicated: true}\n");
  return {{"LOOPWRIGHT_HOST_CONFIG", (scratch / "host.yaml").string()}};
}

// One author step `fmt` that runs tools/fix.sh, with `contract` (step keys,
// one per line) added to it.
std::string contractTaskpack(const std::string& contract) {
  return taskpack(
      "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
      "        - name: fmt\n          role: author\n          run: [sh, tools/fix.sh]\n"
      "          writable: [\"src/**\"]\n" +
          contract,
      "  sandbox: {preferredBackends: [linux-bwrap]}\n");
}

// The formatter fix: ten lines of src/a.c rewritten, a new header added.
const char* kFix =
    "set -e\nfor i in 1 2 3 4 5 6 7 8 9 10; do echo \"int v$i = $i;\"; done > src/a.c\necho '#pragma once' > src/a.h\n";
// The format check: fails (2) while a line has two spaces; writes a build file.
const char* kCheck =
    "echo checked > src/.checked\nif grep -q '  ' src/a.c; then echo 'src/a.c: not formatted' >&2; exit 2; fi\n";

bool bwrapWorks() { return sh("command -v bwrap >/dev/null && bwrap --ro-bind / / true 2>/dev/null") == 0; }

struct ContractRun {
  Scratch s;
  fs::path repo = s.root / "repo";
  TreeSnapshot before;
  CliRun r;
  boost::json::object step;
  ContractRun(const std::string& contract, const char* fix = kFix, bool asLwtest = false) {
    makeRepo(repo, {{".loopwright/taskpack.yaml", contractTaskpack(contract)},
                    {"src/a.c", "int  v1 = 1;\n"},
                    {"tools/fix.sh", fix},
                    {"tools/check.sh", kCheck}});
    before = snapshotTree(repo);
    r = asLwtest ? runDispatchAsLwtest(s, repo, authorHost(s.root)) : runDispatch(s, repo, authorHost(s.root));
    step = stepOf(runJson(s.root / "out"), "fmt");
  }
  const boost::json::object& change() const { return step.at("change").as_object(); }
};

}  // namespace

TEST_CASE("run contract: a change past maxChangedLines is refused with the numbers, exit 5" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  ContractRun run(
      "          maxChangedLines: 5\n          validate: [sh, tools/check.sh]\n"
      "          onStop: \"split the change into smaller ones\"\n");
  INFO(run.r.out << run.r.err);
  CHECK(run.r.status == 5);
  CHECK(run.step.at("outcome").as_string() == "quarantined");
  CHECK(run.step.at("verification").as_object().at("violation").as_string() == "PATH_POLICY_VIOLATION");
  CHECK_FALSE(run.change().at("accepted").as_bool());
  CHECK(run.change().at("refusedBecause").as_string() ==
        "changed 12 lines (11 added, 1 deleted), the contract allows 5");
  // Refused before validate: it never ran.
  CHECK(run.change().at("validation").is_null());
  CHECK_FALSE(fs::exists(run.s.root / "out/steps/s/fmt/validate"));
  const std::string blocker(run.step.at("blocker").as_string());
  CHECK(blocker.find("(PATH_POLICY_VIOLATION): changed 12 lines") != std::string::npos);
  CHECK(blocker.ends_with("Next action: split the change into smaller ones."));
  CHECK(run.r.out.find("change not accepted: changed 12 lines (11 added, 1 deleted), the contract allows 5") !=
        std::string::npos);
  CHECK(treeDifferences(run.before, snapshotTree(run.repo)).empty());
}

namespace {

void checkValidateFails(bool asLwtest) {
  ContractRun run("          validate: [sh, tools/check.sh]\n          maxChangedFiles: 2\n",
                  "echo 'int  v1 = 2;' > src/a.c\n", asLwtest);
  INFO(run.r.out << run.r.err);
  CHECK(run.r.status == 5);
  CHECK(run.step.at("outcome").as_string() == "quarantined");
  CHECK(run.step.at("verification").as_object().at("violation").as_string() == "CONTRACT_UNMET");
  CHECK_FALSE(run.change().at("accepted").as_bool());
  CHECK(run.change().at("refusedBecause").as_string() == "validate `sh tools/check.sh` exited 2");
  const auto& v = run.change().at("validation").as_object();
  CHECK(v.at("exitStatus").as_int64() == 2);
  CHECK_FALSE(v.at("passed").as_bool());
  CHECK_FALSE(v.at("timedOut").as_bool());
  const fs::path stderrLog = run.s.root / "out/steps/s/fmt/validate/stderr.log";
  CHECK(v.at("stderr").as_string() == stderrLog.string());
  CHECK(readFile(stderrLog) == "src/a.c: not formatted\n");
  CHECK(run.r.out.find("validate `sh tools/check.sh`: failed (exit 2, ") != std::string::npos);
  CHECK(std::string(run.step.at("blocker").as_string()).find("Next action: make the change keep") != std::string::npos);
  CHECK(treeDifferences(run.before, snapshotTree(run.repo)).empty());
}

void checkAccepted(bool asLwtest) {
  ContractRun run(
      "          expects: [\"src/*.c\", src/a.h]\n          validate: [sh, tools/check.sh]\n"
      "          maxChangedFiles: 2\n          maxChangedLines: 12\n",
      kFix, asLwtest);
  INFO(run.r.out << run.r.err);
  CHECK(run.r.status == 0);
  CHECK(run.step.at("outcome").as_string() == "passed");
  CHECK(run.change().at("accepted").as_bool());
  const auto& v = run.change().at("validation").as_object();
  CHECK(v.at("passed").as_bool());
  CHECK(v.at("exitStatus").as_int64() == 0);
  // validate's build output stayed in the worktree, out of the patch.
  CHECK(run.change().at("filesChanged").as_int64() == 2);
  CHECK(run.r.out.find("validate `sh tools/check.sh`: passed (exit 0, ") != std::string::npos);
  CHECK(treeDifferences(run.before, snapshotTree(run.repo)).empty());
}

}  // namespace

TEST_CASE("run contract: a change whose validate fails is refused, exit 5, its validate run recorded" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  checkValidateFails(false);
}

TEST_CASE("run contract: a change whose validate fails is refused, as lwtest" * doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lwtestWorks(), "no unprivileged user lwtest with bubblewrap here (run as root to test it)");
  checkValidateFails(true);
}

TEST_CASE("run contract: a change that keeps its contract and passes validate is accepted" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  checkAccepted(false);
}

TEST_CASE("run contract: a change that keeps its contract and passes validate is accepted, as lwtest" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(lwtestWorks(), "no unprivileged user lwtest with bubblewrap here (run as root to test it)");
  checkAccepted(true);
}

TEST_CASE("run contract: an expected path the change does not touch is CONTRACT_UNMET" *
          doctest::test_suite("integration")) {
  LW_REQUIRE_HOST(bwrapWorks(), "bubblewrap cannot create a sandbox here");
  ContractRun run("          expects: [\"src/**/*.c\", src/b.c]\n");
  INFO(run.r.out << run.r.err);
  CHECK(run.r.status == 5);
  CHECK_FALSE(run.change().at("accepted").as_bool());
  CHECK(run.change().at("refusedBecause").as_string() == "no changed path matches expects `src/b.c`");
}
