#include "eval/eval_loop.h"

#include <algorithm>
#include <chrono>

#include <boost/json.hpp>

namespace lw::eval {
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// Runs the case `repeats` times on its change, timing each run whole.
void runCase(const LoadedCase& lc, const CaseChange& change, const DiffLines& diff, int repeats, CaseRunner& runner,
             std::vector<CaseRun>& runs, std::ostream& progress) {
  for (int r = 0; r < repeats; ++r) {
    CaseRun run;
    run.caseName = lc.spec.name;
    run.repeat = r;
    run.diff = diff;
    auto started = std::chrono::steady_clock::now();
    runner.run(lc.spec, change, r, run);
    run.wallMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    progress << "eval: " << lc.spec.name << (repeats > 1 ? " #" + std::to_string(r + 1) : "") << ": "
             << (run.error.empty() ? std::to_string(run.findings.size()) + " finding(s)" : "not run: " + run.error)
             << "\n";
    runs.push_back(std::move(run));
  }
}

}  // namespace

Result<std::vector<LoadedCase>> loadCases(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory() && fs::exists(entry.path() / "case.yaml")) dirs.push_back(entry.path());
  if (ec || dirs.empty())
    return makeError(ErrorCode::UsageError, "no eval case in " + dir.string(),
                     "give --cases a directory of <case>/case.yaml (docs/evals.md)", dir.string());
  std::sort(dirs.begin(), dirs.end());
  std::vector<LoadedCase> cases;
  Error invalid = makeError(ErrorCode::EvalCaseInvalid, "", "fix each problem listed (docs/evals.md)", dir.string());
  for (const fs::path& d : dirs) {
    auto c = loadEvalCase(d.string());
    if (!c && c.error().diagnostics.empty()) return c.error();
    if (!c) {
      for (const Diagnostic& diag : c.error().diagnostics) invalid.diagnostics.push_back(diag);
      continue;
    }
    cases.push_back({std::move(*c), d});
  }
  if (invalid.diagnostics.empty()) return cases;
  invalid.message = dir.string() + ": " + std::to_string(invalid.diagnostics.size()) + " problem(s) in eval cases";
  return invalid;
}

std::vector<CaseRun> runCases(const fs::path& repo, const std::vector<LoadedCase>& cases, int repeats,
                              CaseRunner& runner, std::ostream& progress) {
  std::vector<CaseRun> runs;
  for (const LoadedCase& lc : cases) {
    auto change = makeChange(repo, lc.spec, lc.dir);
    auto diff = change ? diffLinesOf(change->diff) : Result<DiffLines>(change.error());
    if (!diff) {
      CaseRun failed;
      failed.caseName = lc.spec.name;
      failed.error = diff.error().message;
      progress << "eval: " << lc.spec.name << ": not run: " << failed.error << "\n";
      runs.push_back(std::move(failed));
      continue;
    }
    runCase(lc, *change, *diff, repeats, runner, runs, progress);
  }
  return runs;
}

std::string pullRequestPayload(const EvalCase& c, const CaseChange& change) {
  const std::string action = c.event.substr(c.event.find('.') + 1);
  json::object repo{{"full_name", "octo/eval"}, {"fork", false}};
  json::object pull{{"number", 1},
                    {"title", c.title.empty() ? "eval case " + c.name : c.title},
                    {"body", c.description},
                    {"state", "open"},
                    {"draft", false},
                    {"user", json::object{{"login", "eval"}}},
                    {"author_association", "MEMBER"},
                    {"labels", json::array{}},
                    {"head", json::object{{"sha", change.head}, {"ref", "eval-" + c.name}, {"repo", repo}}},
                    {"base", json::object{{"sha", change.base}, {"ref", "main"}, {"repo", repo}}}};
  return json::serialize(json::object{
      {"action", action},
      {"number", 1},
      {"pull_request", std::move(pull)},
      {"repository", json::object{{"name", "eval"}, {"full_name", "octo/eval"}, {"owner", {{"login", "octo"}}}}},
      {"sender", json::object{{"login", "eval"}}}});
}

}  // namespace lw::eval
