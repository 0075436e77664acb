// `loopwright run` with a built-in step (`uses: builtin/lint`) on a real git
// repository, in a real sandbox of each backend: the pipeline starts
// `loopwright-engine agent lint` inside the step's sandbox with its bridge,
// the agent runs the linter there, and its findings reach run.json.
#include <doctest/doctest.h>

#include <map>

#include "integration/pipeline/pipeline_fixture.h"

using namespace lw::test;

namespace {

// builtin/lint running grep as its linter (in every sandbox's system view),
// its lines read by the pattern; nofilter: no GitHub read is needed.
std::string lintTaskpack(const std::string& sandbox) {
  return taskpack(
      "    - name: s\n      on: [workflow_dispatch]\n      steps:\n"
      "        - name: todo\n"
      "          uses: builtin/lint\n"
      "          with:\n"
      "            command: [grep, -rnH, TODO, src]\n"
      "            format: pattern\n"
      "            pattern: '%f:%l:%m'\n"
      "            filterMode: nofilter\n"
      "            severity: notice\n"
      "            rulePrefix: todo\n",
      "  sandbox: " + sandbox + "\n");
}

void expectFindings(const std::string& sandbox, const std::string& backend) {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", lintTaskpack(sandbox)},
                  {"src/a.py", "x = 1\n# TODO: name this\ny = 2\n"},
                  {"src/b.sh", "echo ok\n"}});
  auto r = runDispatch(s, repo);
  INFO(r.out << r.err);
  auto run = runJson(s.root / "out");
  auto step = stepOf(run, "todo");
  REQUIRE_FALSE(step.empty());
  if (step.at("outcome") == "refused") {
    LW_REQUIRE_HOST(false, backend + " cannot run here: " + std::string(step.at("message").as_string()));
  }
  INFO(readFile(s.root / "out/steps/s/todo/stderr.log"));
  CHECK(step.at("backend").as_string() == backend.c_str());
  CHECK(step.at("outcome") == "passed");
  CHECK(step.at("verification").at("result") == "passed");
  CHECK(step.at("outputsAccepted").as_bool());
  REQUIRE(step.at("findings").as_array().size() == 1);
  const auto& f = step.at("findings").as_array()[0];
  CHECK(f.at("path") == "src/a.py");
  CHECK(f.at("line") == 2);
  CHECK(f.at("severity") == "notice");
  CHECK(f.at("step") == "todo");
  // The agent spoke MCP to its own bridge: initialize is not a tool call.
  CHECK(step.at("toolCalls") == 0);
  CHECK(r.status == 0);
}

}  // namespace

TEST_CASE("builtin step: builtin/lint runs in a bwrap sandbox and its findings reach run.json") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  expectFindings("{preferredBackends: [linux-bwrap]}", "linux-bwrap");
}

TEST_CASE("builtin step: builtin/lint runs under landlock and its findings reach run.json") {
  expectFindings("{preferredBackends: [linux-landlock]}", "linux-landlock");
}

TEST_CASE("builtin step: builtin/lint runs on direct-dedicated and its findings reach run.json") {
  expectFindings("{preferredBackends: [direct-dedicated], networkMode: allow-outbound}", "direct-dedicated");
}

TEST_CASE("builtin step: builtin/security on a pull request reads the diff through its bridge, findings in run.json") {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", taskpack("    - name: review\n      on: [pull_request]\n      steps:\n"
                                                         "        - {name: security, uses: builtin/security}\n",
                                                         "  sandbox: {preferredBackends: [linux-bwrap]}\n")},
                  {"README.md", "hi\n"}});
  const std::string git = "cd '" + repo.string() + "' && git -c user.name=t -c user.email=t@invalid ";
  writeFile(repo / ".github/workflows/greet.yml",
            "on: pull_request_target\njobs:\n  greet:\n    runs-on: ubuntu-latest\n    permissions: {}\n"
            "    steps:\n      - run: echo \"${{ github.event.pull_request.title }}\"\n");
  REQUIRE(sh(git + "checkout -q -b feature && " + git + "add -A && " + git + "commit -qm head") == 0);
  REQUIRE(sh(git + "rev-parse main > ../base && " + git + "rev-parse HEAD > ../head") == 0);
  auto trim = [](std::string t) { return t.substr(0, t.find('\n')); };
  // The example's pull_request.opened payload, with this repository's base and head.
  std::string event = readFile(std::string(LOOPWRIGHT_SOURCE_DIR) + "/examples/review/event.json");
  event.replace(event.find("BASE_SHA"), 8, trim(readFile(s.root / "base")));
  event.replace(event.find("HEAD_SHA"), 8, trim(readFile(s.root / "head")));
  writeFile(s.root / "event.json", event);
  auto r = runCli({"run", "--repo", repo.string(), "--event-name", "pull_request", "--event-path",
                   (s.root / "event.json").string(), "--out", (s.root / "out").string()},
                  hostEnv(s.root));
  INFO(r.out << r.err);
  auto step = stepOf(runJson(s.root / "out"), "security");
  REQUIRE_FALSE(step.empty());
  INFO(readFile(s.root / "out/steps/review/security/stderr.log"));
  CHECK(step.at("outcome") == "passed");
  CHECK(step.at("backend") == "linux-bwrap");
  CHECK(step.at("toolCalls").as_int64() >= 1);  // github.pulls.diff, through the step's bridge
  // The injection, and the notice every pull_request_target trigger gets.
  std::map<std::string, boost::json::object> byRule;
  for (const auto& f : step.at("findings").as_array()) byRule[std::string(f.at("ruleId").as_string())] = f.as_object();
  REQUIRE(byRule.size() == 2);
  const auto& f = byRule["security/expression-injection"];
  CHECK(f.at("path") == ".github/workflows/greet.yml");
  CHECK(f.at("line") == 7);
  CHECK(byRule["security/dangerous-trigger"].at("line") == 1);
  CHECK(r.status == 1);  // an error-level finding fails the run (failOn: error)
}

TEST_CASE("builtin step: validate refuses a built-in that could be placed on docker") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml", lintTaskpack("{preferredBackends: [docker], runtimeProfile: node}")}});
  auto r = runCli({"validate", "--repo", repo.string()}, hostEnv(s.root));
  INFO(r.out << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find("builtin/lint cannot run on docker") != std::string::npos);
}

TEST_CASE("builtin step: loopwright agent outside a step says what is missing") {
  auto unknown = runCli({"agent", "autofix"});
  CHECK(unknown.status == 2);
  CHECK(unknown.err.find("no built-in agent 'autofix'") != std::string::npos);
  auto badParams = runCli({"agent", "lint", "--params", R"({"format":"sarf","command":["x"]})"});
  CHECK(badParams.status == 2);
  CHECK(badParams.err.find("builtin/lint: parameter 'format' must be one of its choices") != std::string::npos);
  auto noBridge =
      runCli({"agent", "lint", "--params", R"({"format":"sarif","command":["x"]})"}, {{"LOOPWRIGHT_OUT", "/tmp"}});
  CHECK(noBridge.status == 2);
  CHECK(noBridge.err.find("LOOPWRIGHT_BRIDGE is not set") != std::string::npos);
}
