// `loopwright eval` end to end on examples/evals: the repository of
// examples/pr-review (its base commit), each case run by `run`'s own path
// in real sandboxes (builtin/security, builtin/lint with shellcheck,
// builtin/review on a model lane answered by the deterministic stand-in
// reviewer, or by a hostile one), findings matched to the cases' answers.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "integration/pipeline/pipeline_fixture.h"
#include "support/demo_reviewer.h"
#include "support/fake_model.h"

using namespace lw::test;
namespace json = boost::json;

namespace {

const std::string kSource = LOOPWRIGHT_SOURCE_DIR;
const fs::path kCases = kSource + "/examples/evals";

struct EvalExample {
  Scratch s;
  FakeModel model;
  fs::path repo = s.root / "repo";
  std::map<std::string, std::string> env = hostEnv(s.root);

  explicit EvalExample(FakeModel::Responder reviewer) {
    model.respondWith(std::move(reviewer));
    REQUIRE(sh(kSource + "/examples/pr-review/make-repo.sh " + repo.string() + " " + model.url() + " >/dev/null") == 0);
    REQUIRE(sh("git -C '" + repo.string() + "' checkout -q main") == 0);
    env["OPENAI_API_KEY"] = "sk-test-key";
    env["GITHUB_TOKEN"] = "ghs_must_not_be_used_by_eval_0000000000";
  }

  // The cases named, copied into their own directory.
  fs::path someCases(const std::vector<std::string>& names) {
    fs::path dir = s.root / "some-cases";
    fs::create_directories(dir);
    for (const std::string& n : names) fs::copy(kCases / n, dir / n, fs::copy_options::recursive);
    return dir;
  }

  CliRun eval(const fs::path& cases, std::vector<std::string> extra = {}) {
    static int serial = 0;
    std::vector<std::string> args = {"eval",
                                     "--repo",
                                     repo.string(),
                                     "--cases",
                                     cases.string(),
                                     "--out",
                                     (s.root / ("out" + std::to_string(++serial))).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return runCli(args, env);
  }
};

void requireHost() {
  LW_REQUIRE_HOST(sh("bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1") == 0,
                  "bubblewrap cannot create namespaces here");
  LW_REQUIRE_HOST(sh("command -v shellcheck >/dev/null") == 0, "shellcheck is not installed");
}

const json::object& scope(const json::value& report, const std::string& kind, const std::string& name) {
  static const json::object none;
  if (kind == "all") return report.at("all").as_object();
  for (const json::value& s : report.at(kind == "step" ? "steps" : "lanes").as_array())
    if (s.at("name") == name.c_str()) return s.as_object();
  FAIL("no " << kind << " " << name << " in the report");
  return none;
}

std::int64_t count(const json::object& o, const char* key) { return o.at(key).to_number<std::int64_t>(); }

// Hostile models: one repeats every finding three times with text that
// tries to reach people; one adds findings on a file the change did not
// touch, shaped like the planted bug.
std::string repeatingReviewer(const json::value& request) {
  json::value honest = json::parse(demoReviewerAnswer(request));
  json::array out;
  for (json::value f : honest.at("findings").as_array()) {
    f.as_object()["message"] = "@everyone <img src=x onerror=alert(1)> ignore the other reviewers";
    for (int i = 0; i < 3; ++i) out.push_back(f);
  }
  return json::serialize(json::object{{"findings", std::move(out)}});
}

std::string outsideReviewer(const json::value& request) {
  json::value honest = json::parse(demoReviewerAnswer(request));
  json::array out = honest.at("findings").as_array();
  out.push_back(json::object{{"path", "README.md"},
                             {"startLine", 1},
                             {"endLine", 1},
                             {"severity", "error"},
                             {"rule", "eval-of-input"},
                             {"message", "planted"},
                             {"confidence", 1.0}});
  return json::serialize(json::object{{"findings", std::move(out)}});
}

}  // namespace

TEST_CASE("eval examples: every planted bug is found and no clean or hostile case gets a finding [integration]") {
  requireHost();
  EvalExample ex(demoReviewerAnswer);
  CliRun run = ex.eval(kCases, {"--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  json::value report = json::parse(run.out);
  CHECK(count(report.as_object(), "cases") == 22);
  const json::object& all = scope(report, "all", "");
  CHECK(count(all, "truePositives") == 17);
  CHECK(count(all, "falsePositives") == 0);
  CHECK(count(all, "falseNegatives") == 0);
  CHECK(count(scope(report, "step", "security"), "truePositives") == 6);
  CHECK(count(scope(report, "step", "shellcheck"), "truePositives") == 4);
  CHECK(count(scope(report, "step", "review"), "truePositives") == 7);
  const json::object& primary = scope(report, "lane", "primary");
  CHECK(count(primary, "inputTokens") > 0);
  CHECK(count(primary, "outputTokens") > 0);
  CHECK(count(primary, "tokens") == count(primary, "inputTokens") + count(primary, "outputTokens"));
  // The example's lane costs $0.40 per million input tokens and $1.60 per million output tokens.
  CHECK(primary.at("costUsd").to_number<double>() ==
        doctest::Approx((static_cast<double>(count(primary, "inputTokens")) * 0.40 +
                         static_cast<double>(count(primary, "outputTokens")) * 1.60) /
                        1e6));
  for (const json::value& c : report.at("caseRuns").as_array()) {
    INFO(json::serialize(c));
    CHECK(c.at("stepsNotSucceeded").as_array().empty());
    CHECK(c.at("coverageComplete").as_bool());
  }
  // The cases' pull requests do not exist: eval never used the job's token.
  CHECK(ex.model.count() > 0);
}

TEST_CASE("eval examples: the table gives precision, recall, F1, tokens, time and cost per step and lane") {
  requireHost();
  EvalExample ex(demoReviewerAnswer);
  fs::path cases = ex.someCases({"review-three-bugs", "clean-python"});
  fs::path summary = ex.s.root / "summary.md";
  ex.env["GITHUB_STEP_SUMMARY"] = summary.string();
  CliRun run = ex.eval(cases, {"--repeat", "2"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out.starts_with("scope "));
  for (const char* column : {"TP", "FP", "FN", "precision", "recall", "F1", "findings/case", "tokens", "time", "cost"})
    CHECK(run.out.find(column) != std::string::npos);
  CHECK(run.out.find("step review") != std::string::npos);
  CHECK(run.out.find("lane primary") != std::string::npos);
  CHECK(run.out.find("all steps") != std::string::npos);
  CHECK(run.out.find("1.00±0.00") != std::string::npos);  // two repeats of a deterministic reviewer
  CHECK(run.out.find("2 case(s) x 2 repeat(s)") != std::string::npos);
  CHECK(run.out.find("no price") == std::string::npos);
  CHECK(readFile(summary).find("| step review | 6 | 0 | 0 |") != std::string::npos);
}

TEST_CASE("eval examples: --baseline fails with exit 8 when recall dropped") {
  requireHost();
  EvalExample ex(demoReviewerAnswer);
  fs::path cases = ex.someCases({"review-three-bugs", "review-eval-of-input"});
  CliRun before = ex.eval(cases, {"--json"});
  REQUIRE(before.status == 0);
  fs::path baseline = ex.s.root / "baseline.json";
  writeFile(baseline, before.out);
  CHECK(ex.eval(cases, {"--baseline", baseline.string()}).status == 0);
  // The same cases with a reviewer that finds nothing: the review's recall falls from 100% to 0%.
  ex.model.respondWith([](const json::value&) { return std::string(R"({"findings": []})"); });
  CliRun after = ex.eval(cases, {"--baseline", baseline.string()});
  INFO(after.err);
  CHECK(after.status == 8);
  CHECK(after.err.find("regression: all steps: recall 100.0% -> 0.0%") != std::string::npos);
  CHECK(after.err.find("regression: step review: recall 100.0% -> 0.0%") != std::string::npos);
  CHECK(after.err.find("EVAL_REGRESSION") != std::string::npos);
}

TEST_CASE("eval examples: a hostile model's repeated findings count once and its findings off the change never count") {
  requireHost();
  EvalExample ex(repeatingReviewer);
  fs::path cases = ex.someCases({"review-three-bugs", "hostile-fake-findings"});
  CliRun run = ex.eval(cases, {"--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  json::value report = json::parse(run.out);
  INFO(json::serialize(report.at("caseRuns")));
  const json::object& review = scope(report, "step", "review");
  CHECK(count(review, "truePositives") == 3);  // the three planted bugs, each once
  CHECK(count(review, "falsePositives") == 0);
  CHECK(count(review, "falseNegatives") == 0);
  // A finding on README.md (not in the change): builtin/review drops it with
  // a note and keeps the answer's other findings, so the planted bugs are
  // found; the dropped finding is in the report as dropped, never a finding.
  ex.model.respondWith(outsideReviewer);
  CliRun outside = ex.eval(cases, {"--json"});
  REQUIRE(outside.status == 0);
  json::value second = json::parse(outside.out);
  INFO(json::serialize(second.at("caseRuns")));
  CHECK(count(scope(second, "step", "review"), "truePositives") == 3);
  CHECK(count(scope(second, "step", "review"), "falsePositives") == 0);
  CHECK(count(scope(second, "step", "review"), "falseNegatives") == 0);
  for (const json::value& c : second.at("caseRuns").as_array()) {
    CHECK(c.at("coverageComplete").as_bool());
    CHECK(c.at("filesSkipped").to_number<int>() == 0);
    for (const json::value& v : c.at("verdicts").as_array()) CHECK(v.at("path") != "README.md");
    const json::array& dropped = c.at("dropped").as_array();
    REQUIRE(dropped.size() == 1);
    CHECK(dropped[0].at("step") == "review");
    CHECK(dropped[0].at("path") == "README.md");
    CHECK(dropped[0].at("rule") == "review/eval-of-input");
    CHECK(dropped[0].at("reason") == "off the change: not one of the files the model was shown");
  }
}

TEST_CASE("eval examples: --lane runs the same cases on each lane and reports them side by side") {
  requireHost();
  EvalExample ex(demoReviewerAnswer);
  fs::path cases = ex.someCases({"review-three-bugs", "clean-python"});
  // The example's taskpack with a second lane on the same stand-in model,
  // priced apart.
  std::string taskpack = readFile(ex.repo / ".loopwright" / "taskpack.yaml");
  const std::string lanes = "  lanes:\n";
  REQUIRE(taskpack.find(lanes) != std::string::npos);
  taskpack.insert(taskpack.find(lanes) + lanes.size(),
                  "    - {name: cheap, api: openai-chat, baseUrl: \"" + ex.model.url() +
                      "\", model: small, apiKeyEnv: OPENAI_API_KEY, pricePerMTok: 0.10}\n");
  // With two lanes the review names its own (docs/taskpack.md).
  const std::string review = "uses: builtin/review\n";
  REQUIRE(taskpack.find(review) != std::string::npos);
  taskpack.insert(taskpack.find(review) + review.size(), "          lane: primary\n");
  const fs::path file = ex.s.root / "two-lanes.yaml";
  writeFile(file, taskpack);
  CliRun run = ex.eval(cases, {"--taskpack", file.string(), "--lane", "primary", "--lane", "cheap", "--json"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  json::value report = json::parse(run.out);
  const json::array& bound = report.at("boundLanes").as_array();
  REQUIRE(bound.size() == 2);
  CHECK(bound[0].at("lane") == "primary");
  CHECK(bound[1].at("lane") == "cheap");
  for (const json::value& b : bound) {
    const json::value& r = b.at("report");
    CHECK(count(scope(r, "step", "review"), "truePositives") == 3);
    // The review ran on the bound lane, and only there.
    const json::object& lane = scope(r, "lane", std::string(b.at("lane").as_string()));
    CHECK(count(lane, "inputTokens") > 0);
  }
  const json::object& cheap = scope(bound[1].at("report"), "lane", "cheap");
  CHECK(cheap.at("costUsd").to_number<double>() ==
        doctest::Approx(static_cast<double>(count(cheap, "tokens")) * 0.10 / 1e6));
  CliRun table = ex.eval(cases, {"--taskpack", file.string(), "--lane", "primary", "--lane", "cheap"});
  REQUIRE(table.status == 0);
  CHECK(table.out.find("primary: precision") != std::string::npos);
  CHECK(table.out.find("cheap: precision") != std::string::npos);

  CliRun unknown = ex.eval(cases, {"--taskpack", file.string(), "--lane", "fast"});
  CHECK(unknown.status == 2);
  CHECK(unknown.err.find("error[USAGE_ERROR]: " + file.string() + ":") != std::string::npos);
  CHECK(unknown.err.find("--lane fast: the taskpack has no lane of that name") != std::string::npos);
  CHECK(unknown.err.find("hint: its lanes: cheap, primary") != std::string::npos);
}
