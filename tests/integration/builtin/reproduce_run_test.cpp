// builtin/reproduce's runner with real processes (not in a sandbox: these
// scripts are the test's own): the interpreter looked up in the step's PATH,
// the wall time and the output bound enforced by killing the whole tree, and
// what the reproduction leaves in the out dir removed.
#include <doctest/doctest.h>

#include <sstream>

#include "agents/reproduce/repro_run.h"
#include "integration/pipeline/pipeline_fixture.h"

using namespace lw::test;
using namespace lw::agents::reproduce;

namespace {

RunFacts run(const TempDir& s, Language language, const std::string& script, long long wallTimeMs = 10000,
             std::size_t maxOutput = 4096, const std::string& path = "/usr/local/bin:/usr/bin:/bin") {
  fs::create_directories(s.root / "tree");
  std::ostringstream log;
  return runReproduction({language, script, s.root / "tree", s.root, path, wallTimeMs, maxOutput}, log);
}

}  // namespace

TEST_CASE("reproduce run: an interpreter that is not on the step's PATH is could-not-run, with why") {
  TempDir s;
  const RunFacts f = run(s, Language::JavaScript, "console.log(1)\n", 10000, 4096, (s.root / "empty").string());
  CHECK(f.notRunBecause == "`node` is not installed in the step's sandbox (PATH " + (s.root / "empty").string() + ")");
  CHECK(decide(f).verdict == Verdict::CouldNotRun);
}

TEST_CASE("reproduce run: the script runs in its tree with a minimal environment, its status and output kept") {
  TempDir s;
  writeFile(s.root / "tree/data.txt", "from the tree\n");
  // What the step has in its environment, the reproduction must not get.
  ::setenv("LOOPWRIGHT_BRIDGE", "/tmp/bridge.sock", 1);
  const RunFacts f = run(s, Language::Shell, "cat data.txt; env | sort; echo oops >&2; exit 3\n");
  ::unsetenv("LOOPWRIGHT_BRIDGE");
  CHECK(f.notRunBecause.empty());
  CHECK(f.exitCode == 3);
  CHECK(f.output.find("from the tree\n") == 0);
  CHECK(f.output.find("LOOPWRIGHT_") == std::string::npos);
  CHECK(f.output.find("HOME=" + (s.root / "tree").string() + "\n") != std::string::npos);
  CHECK(f.output.ends_with("oops\n"));
}

TEST_CASE("reproduce run: past its wall time the whole tree is killed, daemons included") {
  TempDir s;
  const std::string marker = (s.root / "still-here").string();
  const RunFacts f = run(s, Language::Bash,
                         "(setsid sh -c 'sleep 3; touch " + marker + "' &)\nsleep 30 & sleep 30 &\nsleep 60\n", 500);
  CHECK(f.timedOut);
  CHECK(decide(f).verdict == Verdict::CouldNotRun);
  ::sleep(4);
  CHECK_FALSE(fs::exists(marker));
}

TEST_CASE("reproduce run: past its output bound it is killed at once, not at its wall time") {
  TempDir s;
  const auto started = std::chrono::steady_clock::now();
  const RunFacts f = run(s, Language::Python, "import sys\nwhile True: sys.stdout.write('x' * 1000)\n", 60000, 8192);
  CHECK(f.outputCapped);
  CHECK_FALSE(f.timedOut);
  CHECK(f.output.size() <= 2 * 8192 + 1);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
  CHECK(decide(f).why == "it printed more than its bound of 8192 bytes and was killed");
}

TEST_CASE("reproduce run: what it leaves in the out dir is removed, even a directory it made unwritable") {
  TempDir s;
  writeFile(s.root / "keep.json", "{}");
  const std::vector<std::string> before = entriesOf(s.root);
  fs::create_directories(s.root / "findings.json/deep");
  writeFile(s.root / "triage.json", "{\"labels\": [\"forged\"]}");
  REQUIRE(sh("chmod 0500 '" + (s.root / "findings.json").string() + "'") == 0);
  CHECK(removeAddedEntries(s.root, before) == 2);
  CHECK(entriesOf(s.root) == std::vector<std::string>{"keep.json"});
}
