#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "policy/builtin/builtin_params.h"
#include "policy/load/taskpack_loader.h"

// Diagnostics compared as lists print as lists when they differ.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& lines) {
    std::string out = "[";
    for (const std::string& l : lines) out += "\n  " + l;
    return (out + "]").c_str();
  }
};
}  // namespace doctest

using namespace lw;
namespace json = boost::json;

namespace {

const TaskpackLoadOptions kOpts{"/home/alice"};

// A taskpack whose one step (line 9) is `stepBody` (lines from 10 on,
// indented by 10 spaces), after `specExtra` lines (lanes, sandbox).
std::string taskpack(const std::string& stepBody, const std::string& specExtra = "") {
  return "apiVersion: loopwright.dev/v1alpha1\nkind: Taskpack\nmetadata: {name: t}\nspec:\n" + specExtra +
         "  stages:\n    - name: s\n      on: [pull_request]\n      steps:\n        - name: a\n" + stepBody;
}

const std::string kOneLane =
    "  lanes:\n    - {name: primary, api: openai-chat, baseUrl: 'http://127.0.0.1:1/v1', model: m, apiKeyEnv: K}\n";
const std::string kTwoLanes =
    kOneLane + "    - {name: second, api: openai-chat, baseUrl: 'http://127.0.0.1:1/v1', model: m, apiKeyEnv: K}\n";

// "line:col path: message | hint" of each diagnostic.
std::vector<std::string> problems(const std::string& text) {
  auto r = parseTaskpack(text, "tp.yaml", kOpts);
  if (r.ok()) return {};
  CHECK(r.error().code == ErrorCode::TaskpackInvalid);
  std::vector<std::string> out;
  for (const Diagnostic& d : r.error().diagnostics)
    out.push_back(d.location.file + ":" + std::to_string(d.location.line) + ":" + std::to_string(d.location.column) +
                  " " + d.location.path + ": " + d.message + " | " + d.hint);
  return out;
}

Step onlyStep(const std::string& text) {
  auto r = parseTaskpack(text, "tp.yaml", kOpts);
  if (!r.ok())
    for (const Diagnostic& d : r.error().diagnostics) MESSAGE(d.message);
  REQUIRE(r.ok());
  return r->stages.at(0).steps.at(0);
}

}  // namespace

TEST_CASE("builtin params: a built-in step gets every parameter, its defaults and the catalogue's role") {
  Step security = onlyStep(taskpack("          uses: builtin/security\n"));
  CHECK(security.with.empty());
  CHECK(json::serialize(security.params) ==
        R"({"disable":[],"minSeverity":"notice","dependencies":true,"maxFindings":200,"persona":"default"})");
  CHECK(security.role == Role::Reviewer);

  Step triage =
      onlyStep(taskpack("          uses: builtin/triage\n          with: {duplicateThreshold: 1, labels: false}\n"));
  CHECK(triage.role == Role::Triage);
  CHECK(triage.with.size() == 2);
  CHECK(triage.params.at("duplicateThreshold").is_double());  // a number, even written as 1
  CHECK(triage.params.at("duplicateThreshold").as_double() == 1.0);
  CHECK(triage.params.at("labels").as_bool() == false);
  CHECK(triage.params.at("maxDuplicates").as_int64() == 3);

  Step lint = onlyStep(
      taskpack("          uses: builtin/lint\n          with:\n            command: [shellcheck, -f, checkstyle, -f, "
               "checkstyle]\n"
               "            format: checkstyle\n            filterMode: nofilter\n            maxFindings: 1_000\n"));
  CHECK(json::serialize(lint.params.at("command")) == R"(["shellcheck","-f","checkstyle","-f","checkstyle"])");
  CHECK(lint.params.at("filterMode").as_string() == "nofilter");
  CHECK(lint.params.at("maxFindings").as_int64() == 1000);
  CHECK(lint.params.at("pattern").as_string() == "%f:%l:%c: %m");

  Step asAuthor = onlyStep(taskpack("          uses: builtin/security\n          role: triage\n"));
  CHECK(asAuthor.role == Role::Triage);  // an explicit role is kept
}

TEST_CASE("builtin params: each mistake in with: is reported at its file:line:col") {
  SUBCASE("an unknown parameter, with a did-you-mean") {
    CHECK(problems(taskpack("          uses: builtin/security\n          with:\n            maxFinding: 3\n")) ==
          std::vector<std::string>{
              "tp.yaml:12:13 spec.stages[0].steps[0].with.maxFinding: builtin/security has no parameter "
              "'maxFinding' | did you mean 'maxFindings'?"});
  }
  SUBCASE("an unknown parameter nothing resembles lists the parameters") {
    CHECK(problems(taskpack("          uses: builtin/security\n          with: {color: red}\n")) ==
          std::vector<std::string>{
              "tp.yaml:11:18 spec.stages[0].steps[0].with.color: builtin/security has no parameter 'color' | "
              "its parameters: disable, minSeverity, dependencies, maxFindings, persona"});
  }
  SUBCASE("a wrong type") {
    CHECK(problems(taskpack("          uses: builtin/security\n          with:\n            dependencies: yes\n"
                            "            disable: secrets/aws\n")) ==
          std::vector<std::string>{
              "tp.yaml:12:27 spec.stages[0].steps[0].with.dependencies: 'yes' is not true or false | ",
              "tp.yaml:13:22 spec.stages[0].steps[0].with.disable: must be a list, not a scalar | write it as [a, b] "
              "or '- a' lines"});
  }
  SUBCASE("a value outside the choices, with a did-you-mean") {
    CHECK(problems(taskpack("          uses: builtin/lint\n          with: {command: [x], format: sarf}\n")) ==
          std::vector<std::string>{
              "tp.yaml:11:40 spec.stages[0].steps[0].with.format: 'sarf' is not one of 'sarif', 'rdjson', "
              "'rdjsonl', 'checkstyle' or 'pattern' | did you mean 'sarif'?"});
  }
  SUBCASE("values outside the bounds") {
    CHECK(problems(taskpack("          uses: builtin/review\n          with:\n            maxFiles: 0\n"
                            "            minConfidence: 1.5\n            maxTokens: '5000'\n",
                            kOneLane)) ==
          std::vector<std::string>{
              "tp.yaml:14:23 spec.stages[0].steps[0].with.maxFiles: '0' is not a whole number from 1 to 1000 | ",
              "tp.yaml:15:28 spec.stages[0].steps[0].with.minConfidence: '1.5' is not a number from 0 to 1 | ",
              "tp.yaml:16:24 spec.stages[0].steps[0].with.maxTokens: '5000' is not a whole number from 1000 to "
              "2000000 | "});
  }
  SUBCASE("a number is a plain decimal: hex, infinity, NaN and padding are not") {
    for (const char* text : {"0x1p-1", ".inf", "nan", "' 0.5'", "1e400", "0.5x"}) {
      auto p = problems(taskpack(
          std::string("          uses: builtin/review\n          with: {minConfidence: ") + text + "}\n", kOneLane));
      REQUIRE_MESSAGE(p.size() == 1, text);
      CHECK_MESSAGE(p[0].find("is not a number from 0 to 1") != std::string::npos, p[0]);
    }
    CHECK(problems(taskpack("          uses: builtin/review\n          with: {minConfidence: 5e-1}\n", kOneLane))
              .empty());
  }
  SUBCASE("a required parameter missing: at with: when there is one, else at the step") {
    CHECK(problems(taskpack("          uses: builtin/lint\n          with: {format: sarif}\n")) ==
          std::vector<std::string>{
              "tp.yaml:11:17 spec.stages[0].steps[0].with: builtin/lint needs the parameter 'command' (the linter's "
              "argv, run in the workspace) | add it under with: (see docs/builtin-steps.md)"});
    auto p = problems(taskpack("          uses: builtin/lint\n"));
    REQUIRE(p.size() == 2);
    CHECK(p[0].starts_with("tp.yaml:9:11 spec.stages[0].steps[0]: builtin/lint needs the parameter 'command'"));
    CHECK(p[1].starts_with("tp.yaml:9:11 spec.stages[0].steps[0]: builtin/lint needs the parameter 'format'"));
  }
  SUBCASE("a parameter given twice, and with: that is not a mapping") {
    auto twice =
        problems(taskpack("          uses: builtin/security\n          with: {maxFindings: 3, maxFindings: 4}\n"));
    REQUIRE(!twice.empty());
    CHECK(twice[0].find("maxFindings") != std::string::npos);
    CHECK(problems(taskpack("          uses: builtin/security\n          with: [maxFindings]\n")) ==
          std::vector<std::string>{
              "tp.yaml:11:17 spec.stages[0].steps[0].with: must be a mapping of builtin/security's parameters | "
              "write 'name: value' lines; its parameters: disable, minSeverity, dependencies, maxFindings, persona"});
  }
  SUBCASE("with: on a run: step") {
    CHECK(problems(taskpack("          run: [./check.sh]\n          with: {maxFindings: 3}\n")) ==
          std::vector<std::string>{
              "tp.yaml:11:17 spec.stages[0].steps[0].with: 'with' gives a built-in step its parameters; this step "
              "has no 'uses' | remove 'with', or pass the values to your command in run: [...]"});
  }
}

TEST_CASE("builtin params: an unknown built-in gets a did-you-mean") {
  CHECK(problems(taskpack("          uses: builtin/secuirty\n")) ==
        std::vector<std::string>{
            "tp.yaml:10:17 spec.stages[0].steps[0].uses: 'builtin/secuirty' is not a built-in step of this version | "
            "did you mean 'builtin/security'?"});
  CHECK(problems(taskpack("          uses: builtin/autofix\n")) ==
        std::vector<std::string>{
            "tp.yaml:10:17 spec.stages[0].steps[0].uses: 'builtin/autofix' is not a built-in step of this version | "
            "the built-in steps: builtin/security, builtin/lint, builtin/review, builtin/triage, builtin/reproduce"});
}

TEST_CASE("builtin params: a built-in that calls a model has a lane, the step's or the taskpack's only one") {
  SUBCASE("the only lane is the step's") {
    Step review = onlyStep(taskpack("          uses: builtin/review\n", kOneLane));
    CHECK(review.lane == "primary");
    CHECK(stepCallsModel(review));
    CHECK(builtinGrants(review) == std::vector<std::string>{"github.pull", "github.pulls.diff", "github.pulls.files",
                                                            "github.file", "model.complete"});
  }
  SUBCASE("no lane at all") {
    CHECK(problems(taskpack("          uses: builtin/review\n")) ==
          std::vector<std::string>{
              "tp.yaml:9:11 spec.stages[0].steps[0]: builtin/review calls model.complete, and the step names no "
              "lane (spec.lanes is empty) | define a model lane under spec.lanes"});
  }
  SUBCASE("several lanes and none named") {
    auto p = problems(taskpack("          uses: builtin/review\n", kTwoLanes));
    REQUIRE(p.size() == 1);
    CHECK(p[0].ends_with("(spec.lanes has several) | add lane: <name> to the step"));
    Step named = onlyStep(taskpack("          uses: builtin/review\n          lane: second\n", kTwoLanes));
    CHECK(named.lane == "second");
  }
  SUBCASE("triage calls the model only with useModel: true") {
    Step plain = onlyStep(taskpack("          uses: builtin/triage\n", kOneLane));
    CHECK_FALSE(plain.lane);
    CHECK_FALSE(stepCallsModel(plain));
    CHECK(builtinGrants(plain) ==
          std::vector<std::string>{"github.issue", "github.labels", "github.issues.search", "github.file"});
    Step withModel = onlyStep(taskpack("          uses: builtin/triage\n          with: {useModel: true}\n", kOneLane));
    CHECK(withModel.lane == "primary");
    CHECK(builtinGrants(withModel).back() == "model.complete");
    auto p = problems(taskpack("          uses: builtin/triage\n          lane: primary\n", kOneLane));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("step names a lane but is not granted model.complete") != std::string::npos);
  }
}

TEST_CASE("builtin params: a built-in that could be placed on docker is refused") {
  const std::string docker = "          sandbox: {preferredBackends: [docker, linux-bwrap], runtimeProfile: node}\n";
  CHECK(problems(taskpack("          uses: builtin/security\n" + docker)) ==
        std::vector<std::string>{
            "tp.yaml:9:11 spec.stages[0].steps[0]: builtin/security cannot run on docker: a container does not see "
            "the loopwright executable that runs the built-in | give the step sandbox: {preferredBackends: "
            "[linux-bwrap, linux-landlock]}, or run your own agent from the runtime profile's image with run: [...]"});
  const std::string specDocker = "  sandbox: {preferredBackends: [docker], runtimeProfile: node}\n";
  CHECK(problems(taskpack("          uses: builtin/security\n", specDocker)).size() == 1);
  // The step's own list wins over the taskpack's.
  CHECK(problems(taskpack("          uses: builtin/security\n          sandbox: {preferredBackends: [linux-bwrap]}\n",
                          specDocker))
            .empty());
  CHECK(problems(taskpack("          run: [x]\n" + docker)).empty());
}

TEST_CASE("builtin params: --params JSON checked against the catalogue, defaults filled") {
  const BuiltinStep& security = *findBuiltinStep("security");
  auto filled = resolveParams(security, json::parse(R"({"maxFindings": 5})").as_object());
  REQUIRE(filled.ok());
  CHECK(json::serialize(*filled) ==
        R"({"disable":[],"minSeverity":"notice","dependencies":true,"maxFindings":5,"persona":"default"})");
  struct Case {
    const char* params;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"maxFinding": 5})", "builtin/security: no parameter 'maxFinding'"},
           {R"({"maxFindings": 0})", "builtin/security: parameter 'maxFindings' must be an integer in bounds"},
           {R"({"maxFindings": "5"})", "builtin/security: parameter 'maxFindings' must be an integer in bounds"},
           {R"({"minSeverity": "fatal"})", "builtin/security: parameter 'minSeverity' must be one of its choices"},
           {R"({"disable": ["a", 1]})", "builtin/security: parameter 'disable' must be a list of strings"},
           {R"({"dependencies": 1})", "builtin/security: parameter 'dependencies' must be true or false"}}) {
    CAPTURE(c.params);
    auto r = resolveParams(security, json::parse(c.params).as_object());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::UsageError);
    CHECK(r.error().message == c.message);
  }
  auto lint = resolveParams(*findBuiltinStep("lint"), json::object{{"format", "sarif"}});
  REQUIRE_FALSE(lint.ok());
  CHECK(lint.error().message == "builtin/lint: parameter 'command' is required");
}

TEST_CASE("builtin params: explain's view names every parameter, its value and whether it is the default") {
  Step step = onlyStep(taskpack("          uses: builtin/security\n          with: {maxFindings: 7}\n"));
  json::value v = builtinJson(step);
  REQUIRE(v.is_object());
  CHECK(v.at("uses") == "builtin/security");
  CHECK(v.at("role") == "reviewer");
  CHECK(json::serialize(v.at("tools")) == R"(["github.pulls.diff","github.pulls.files","github.file"])");
  const json::array& params = v.at("params").as_array();
  REQUIRE(params.size() == 5);
  CHECK(params[3].at("name") == "maxFindings");
  CHECK(params[3].at("value") == 7);
  CHECK(params[3].at("isDefault") == false);
  CHECK(params[0].at("isDefault") == true);
  CHECK(builtinJson(onlyStep(taskpack("          run: [x]\n"))).is_null());
}
