// `loopwright run` end to end with a reviewing step that writes
// coverage.json next to findings.json: the coverage lands in run.json and
// the summary, an incomplete one fails the run, a malformed one is recorded
// as refused, and --sarif writes the accepted findings.
#include <doctest/doctest.h>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/fake_model.h"

using namespace lw::test;

namespace {

// A step (sh -c) that writes its outputs with printf, so no file of the
// repository is touched.
std::string writer(const std::string& name, const std::string& findings, const std::string& coverage) {
  return "        - {name: " + name +
         ", run: [sh, -c, 'printf %s \"$0\" > \"$LOOPWRIGHT_OUT/findings.json\" && printf %s \"$1\" > "
         "\"$LOOPWRIGHT_OUT/coverage.json\"', '" +
         findings + "', '" + coverage + "']}\n";
}

const std::string kFindings =
    R"({"findings":[{"ruleId":"review/sql","severity":"warning","message":"SQL built from input","path":"src/app.c","line":2},{"ruleId":"review/tests","severity":"notice","message":"no tests"}]})";

}  // namespace

TEST_CASE(
    "coverage run: coverage.json in run.json and the summary, an incomplete review fails, --sarif writes the "
    "findings") {
  Scratch s;
  fs::path repo = s.root / "repo";
  std::string incomplete =
      R"({"files":[{"path":"src/app.c","status":"reviewed"},{"path":"src/big.c","status":"skipped","reason":"over the token budget"}],"complete":false,"reason":"token budget reached after 1 of 2 files"})";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: review\n      on: [workflow_dispatch]\n      steps:\n" +
                                writer("model-review", kFindings, incomplete) +
                                writer("broken", R"({"findings":[]})", R"({"files":"all","complete":true})"),
                            "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n")},
                  {"src/app.c", "int main(void) { return 0; }\n"}});
  fs::path sarif = s.root / "results.sarif";
  auto env = hostEnv(s.root);
  auto r = runCli({"run", "--repo", repo.string(), "--event-name", "workflow_dispatch", "--out",
                   (s.root / "out").string(), "--sarif", sarif.string()},
                  env);
  INFO(r.out << r.err);
  CHECK(r.status == 1);  // only notices and warnings, failOn error: the incomplete coverage fails it
  auto run = runJson(s.root / "out");
  auto review = stepOf(run, "model-review");
  CHECK(review.at("outcome").as_string() == "passed");
  CHECK(review.at("coverage").at("complete") == false);
  CHECK(review.at("coverage").at("reason") == "token budget reached after 1 of 2 files");
  CHECK(review.at("coverage").at("files").as_array()[1].at("reason") == "over the token budget");
  CHECK(review.at("tokensUsed") == 0);  // no model lane in this taskpack
  auto broken = stepOf(run, "broken");
  CHECK(broken.at("coverage").at("complete") == false);
  CHECK(std::string(broken.at("coverage").at("reason").as_string())
            .rfind("coverage.json was refused (coverage.json: $.files: must be array", 0) == 0);
  CHECK(r.out.find("coverage: 1 reviewed, 0 clipped, 1 skipped; incomplete: token budget reached after 1 of 2 files") !=
        std::string::npos);

  auto log = boost::json::parse(readFile(sarif));
  const auto& results = log.at("runs").as_array()[0].at("results").as_array();
  REQUIRE(results.size() == 1);  // the whole-change notice has no file
  CHECK(results[0].at("ruleId") == "review/sql");
  CHECK(results[0].at("locations").as_array()[0].at("physicalLocation").at("artifactLocation").at("uri") ==
        "src/app.c");
  CHECK(r.out.find("1 finding(s) on the change as a whole are not in " + sarif.string()) != std::string::npos);
}

TEST_CASE(
    "coverage run: a complete coverage and findings under the fail level exit 0, and --sarif to a bad path is an "
    "error") {
  Scratch s;
  fs::path repo = s.root / "repo";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: review\n      on: [workflow_dispatch]\n      steps:\n" +
                                writer("model-review", kFindings,
                                       R"({"files":[{"path":"src/app.c","status":"reviewed"}],"complete":true})"),
                            "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n")},
                  {"src/app.c", "int main(void) { return 0; }\n"}});
  auto ok = runDispatch(s, repo);
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  auto bad = runCli({"run", "--repo", repo.string(), "--event-name", "workflow_dispatch", "--out",
                     (s.root / "out2").string(), "--sarif", "/nonexistent-dir/x.sarif"},
                    hostEnv(s.root));
  CHECK(bad.status != 0);
  CHECK((bad.out + bad.err).find("/nonexistent-dir/x.sarif") != std::string::npos);
}

TEST_CASE("coverage run: the tokens of a step's model calls, as the lane reported them, are in run.json") {
  FakeModel model;  // every completion reports 11 input and 7 output tokens
  Scratch s;
  fs::path repo = s.root / "repo";
  const std::string call =
      R"({"jsonrpc":"2.0","id":ID,"method":"tools/call","params":{"name":"model.complete","arguments":{"messages":[{"role":"user","content":"review this"}]}}})";
  std::string script =
      "#!/bin/sh\nset -eu\n\"$LOOPWRIGHT_BIN\" bridge stdio <<'JSON' >\"$LOOPWRIGHT_OUT/bridge.log\"\n"
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
      "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
      "\n";
  for (const char* id : {"2", "3"}) {
    std::string c = call;
    script += c.replace(c.find("ID"), 2, id) + "\n";
  }
  script += "JSON\n";
  makeRepo(repo, {{".loopwright/taskpack.yaml",
                   taskpack("    - name: review\n      on: [workflow_dispatch]\n      steps:\n"
                            "        - {name: model-review, run: [sh, .loopwright/agents/model.sh], lane: fake, tools: "
                            "[model.complete]}\n",
                            "  sandbox: {preferredBackends: [direct-dedicated], networkMode: allow-outbound}\n"
                            "  lanes:\n    - {name: fake, api: openai-chat, baseUrl: \"" +
                                model.url() + "\", model: m, apiKeyEnv: LW_TEST_MODEL_KEY}\n")},
                  {".loopwright/agents/model.sh", script}});
  auto env = hostEnv(s.root);
  env["LW_TEST_MODEL_KEY"] = "sk-test-not-a-secret";
  auto r = runCli(
      {"run", "--repo", repo.string(), "--event-name", "workflow_dispatch", "--out", (s.root / "out").string()}, env);
  INFO(r.out << r.err << readFile(s.root / "out" / "steps" / "review" / "model-review" / "out" / "bridge.log"));
  CHECK(r.status == 0);
  CHECK(model.count() == 2);
  auto run = runJson(s.root / "out");
  auto step = stepOf(run, "model-review");
  CHECK(step.at("modelCalls") == 2);
  CHECK(step.at("tokensUsed") == 36);
  CHECK(run.at("tokensUsed") == 36);
  CHECK(r.out.find("tokens used: 36") != std::string::npos);
}
