// `loopwright eval import --commit` on a real repository's history: a fix
// commit becomes a case whose change puts the bug back, and `eval` runs it
// through the deterministic steps (builtin/security, builtin/lint with
// shellcheck), which pass it when they find the bug and fail it when not.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const std::string kTaskpack = taskpack(
    "    - name: review\n"
    "      on: [pull_request.opened]\n"
    "      steps:\n"
    "        - {name: security, uses: builtin/security}\n"
    "        - name: shellcheck\n"
    "          uses: builtin/lint\n"
    "          with: {command: [sh, -c, 'shellcheck -f checkstyle scripts/*.sh'], format: checkstyle}\n");

const std::string kBuggy =
    "#!/bin/sh\n# Installs the tool.\nset -eu\ncurl -fsSL https://example.com/get.sh | sh\necho installed\n";
const std::string kFixed =
    "#!/bin/sh\n# Installs the tool.\nset -eu\ncurl -fsSL -o get.sh https://example.com/get.sh\n"
    "sha256sum -c get.sh.sha256\nsh get.sh\necho installed\n";

std::string commitAll(const fs::path& repo, const std::string& message) {
  REQUIRE(sh("cd '" + repo.string() + "' && git add -A && git -c user.name=t -c user.email=t@invalid commit -qm '" +
             message + "'") == 0);
  std::string sha = capture("git -C '" + repo.string() + "' rev-parse HEAD");
  sha.pop_back();
  return sha;
}

}  // namespace

TEST_CASE("eval import: a fix commit becomes a case the security step passes and a missed bug a case it fails") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  LW_REQUIRE_HOST(sh("command -v shellcheck >/dev/null") == 0, "shellcheck is not installed");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", kTaskpack},
                  {"scripts/install.sh", kBuggy},
                  {"src/count.py", "def last(xs):\n    return xs[len(xs)]\n"}});
  writeFile(repo / "scripts/install.sh", kFixed, true);
  const std::string scriptFix = commitAll(repo, "install.sh: verify the download before running it");
  writeFile(repo / "src/count.py", "def last(xs):\n    return xs[len(xs) - 1]\n");
  const std::string indexFix = commitAll(repo, "count: last() read past the end");

  fs::path cases = s.root / "cases";
  CliRun one = runCli({"eval", "import", "--repo", repo.string(), "--commit", scriptFix, "--cases", cases.string(),
                       "--name", "curl-pipe"});
  INFO(one.err);
  REQUIRE(one.status == 0);
  CHECK(one.out.find("1 expected finding(s)") != std::string::npos);
  const std::string yaml = readFile(cases / "curl-pipe/case.yaml");
  CHECK(yaml.find("base: " + scriptFix) != std::string::npos);
  // The revert replaces the fix's lines 4-6 with the buggy line 4.
  CHECK(yaml.find("- {path: \"scripts/install.sh\", lines: [4, 4]}") != std::string::npos);
  REQUIRE(runCli({"eval", "import", "--repo", repo.string(), "--commit", indexFix, "--cases", cases.string(), "--name",
                  "off-by-one"})
              .status == 0);
  CHECK(readFile(cases / "off-by-one/case.yaml").find("- {path: \"src/count.py\", lines: [2, 2]}") !=
        std::string::npos);
  // The same name twice is refused; so is a commit without a parent.
  CHECK(runCli({"eval", "import", "--repo", repo.string(), "--commit", indexFix, "--cases", cases.string(), "--name",
                "off-by-one"})
            .status == 2);
  CHECK(runCli({"eval", "import", "--repo", repo.string(), "--commit", "HEAD~2", "--cases", cases.string()}).status ==
        2);

  CliRun run =
      runCli({"eval", "--repo", repo.string(), "--cases", cases.string(), "--out", (s.root / "out").string(), "--json"},
             hostEnv(s.root));
  INFO(run.err);
  REQUIRE(run.status == 0);
  json::value report = json::parse(run.out);
  for (const json::value& c : report.at("caseRuns").as_array()) {
    INFO(json::serialize(c));
    if (c.at("name") == "curl-pipe") {
      CHECK(c.at("truePositives").to_number<int>() == 1);  // security/curl-pipe-shell on line 4
      CHECK(c.at("falseNegatives").to_number<int>() == 0);
    } else {
      CHECK(c.at("truePositives").to_number<int>() == 0);  // no deterministic rule sees an off-by-one
      CHECK(c.at("falseNegatives").to_number<int>() == 1);
      CHECK(c.at("missed").as_array().front() == "src/count.py:2-2");
    }
  }
}
