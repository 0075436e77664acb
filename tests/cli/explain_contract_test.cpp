// `loopwright explain` and `loopwright validate` of an author step's task
// contract: explain shows each key (text and --json), validate reports each
// mistake with its file:line:col.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "support/run_cli.h"
#include "support/temp_dir.h"

using lw::test::runCli;
using lw::test::TempDir;

namespace {

std::string taskpackWith(const std::string& fmtStep) {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: c}\nspec:\n"
         "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n"
         "  stages:\n    - name: fix\n      on: [pull_request]\n      steps:\n"
         "        - name: fmt\n          run: [./fix.sh]\n" +
         fmtStep + "        - {name: plain, run: [x]}\n";
}

const std::string kContract =
    "          role: author\n          writable: [\"src/**\"]\n          expects: [\"src/**/*.c\"]\n"
    "          validate: [make, check-format]\n          maxChangedFiles: 20\n          maxChangedLines: 400\n"
    "          onStop: \"run clang-format locally and push\"\n";

const std::string kHost =
    "apiVersion: loopwright.dev/v1alpha1\nkind: HostConfig\nfloor: {allowDirectDedicated: true}\n";

}  // namespace

TEST_CASE("explain: an author step shows its task contract, text and json") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", taskpackWith(kContract));
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml", kHost)}};
  auto r = runCli({"explain", tp}, env);
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("  contract.expects              src/**/*.c\n"
                   "                                ← step task contract (line 14)\n"
                   "  contract.validate             make check-format\n"
                   "                                ← run on the worktree in the step's sandbox, network none\n"
                   "  contract.maxChangedFiles      20\n"
                   "  contract.maxChangedLines      400\n"
                   "                                ← added + deleted\n"
                   "  contract.maxBinaryBytes       0\n"
                   "                                ← no binary file: the contract bounds lines\n"
                   "  contract.gitRuleFiles         (none)\n"
                   "                                ← the only .gitattributes and .gitignore files it may change\n"
                   "  contract.onStop               run clang-format locally and push\n"
                   "                                ← the next action of the step's BLOCKERs\n") != std::string::npos);
  CHECK(r.out.substr(r.out.find("step plain")).find("contract.") == std::string::npos);

  auto j = runCli({"explain", tp, "--json"}, env);
  INFO(j.err);
  REQUIRE(j.status == 0);
  auto steps = boost::json::parse(j.out).at("steps").as_array();
  CHECK(steps.at(0).at("contract") ==
        boost::json::parse(R"({"expects":["src/**/*.c"],"validate":["make","check-format"],"maxChangedFiles":20,)"
                           R"("maxChangedLines":400,"maxBinaryBytes":null,"gitRuleFiles":[],)"
                           R"("onStop":"run clang-format locally and push"})"));
  CHECK(steps.at(1).at("contract").is_null());
}

TEST_CASE("validate: a task contract's mistakes, each with its location, exit 2") {
  TempDir dir;
  std::string tp = dir.write("tp.yaml", taskpackWith("          expects: [src/a.c]\n          maxChangedLines: 0\n"));
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml", kHost)}};
  auto r = runCli({"validate", tp}, env);
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find(tp + ":12:11") != std::string::npos);
  CHECK(r.err.find("only an author step has a task contract ('expects')") != std::string::npos);
  CHECK(r.err.find(tp + ":13:28") != std::string::npos);

  std::string good = dir.write("good.yaml", taskpackWith(kContract));
  CHECK(runCli({"validate", good}, env).status == 0);
}

TEST_CASE("explain: a refused author step's BLOCKER gives its onStop as next action, as run would") {
  TempDir dir;
  std::string tp =
      dir.write("tp.yaml", taskpackWith("          sandbox: {preferredBackends: [macos-seatbelt]}\n" + kContract));
  std::map<std::string, std::string> env = {{"LOOPWRIGHT_HOST_CONFIG", dir.write("host.yaml", kHost)}};
  auto r = runCli({"explain", tp}, env);
  INFO(r.out << r.err);
  CHECK(r.status == 3);
  CHECK(r.out.find("no sandbox backend gives step fix/fmt") != std::string::npos);
  CHECK(r.out.find("Next action: run clang-format locally and push.\n") != std::string::npos);
}
