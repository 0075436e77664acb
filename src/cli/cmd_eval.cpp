// `loopwright eval`: the taskpack's review measured on cases with known
// answers (docs/evals.md). Each case is run by `run`'s own path with nothing
// published; the findings are matched to the case's answers and reported
// per step, per lane and for the whole run.
#include <charconv>
#include <fstream>
#include <thread>

#include <boost/json/parse.hpp>

#include "cli/cmd_eval_runner.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/error_report.h"
#include "core/file_io.h"
#include "eval/report.h"
#include "github/actions/actions_files.h"
#include "pipeline/run/run_setup.h"
#include "verify/git/libgit2.h"

namespace lw::cli {
namespace fs = std::filesystem;

namespace {

Result<int> wholeNumber(const Args& args, const std::string& option, int fallback, int min, int max) {
  auto text = args.value(option);
  if (!text) return fallback;
  int n = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (ec != std::errc() || end != text->data() + text->size() || n < min || n > max)
    return makeError(ErrorCode::UsageError,
                     "--" + option + " " + *text + " is not a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max),
                     "see `loopwright eval --help`", "--" + option);
  return n;
}

// What the options settle before any case runs.
struct EvalOptions {
  fs::path repo;
  fs::path cases;
  fs::path out;
  int repeats = 1;
  double threshold = 0.05;
  std::optional<boost::json::value> baseline;
};

Result<boost::json::value> readBaseline(const std::string& file) {
  auto text = readBoundedFile(file, 64 * 1024 * 1024, ErrorCode::IoError);
  if (!text) return text.error();
  boost::system::error_code ec;
  auto v = boost::json::parse(*text, ec);
  if (ec)
    return makeError(ErrorCode::UsageError, "--baseline " + file + " is not JSON: " + ec.message(),
                     "give the file an earlier `loopwright eval --json` wrote");
  return v;
}

Result<EvalOptions> evalOptions(const Args& args, const Environment& env) {
  EvalOptions o;
  std::error_code ec;
  o.repo = fs::canonical(args.value("repo").value_or("."), ec);
  if (ec) return makeError(ErrorCode::UsageError, "repository " + args.value("repo").value_or(".") + " not found");
  o.cases = args.value("cases") ? fs::path(*args.value("cases")) : o.repo / ".loopwright" / "evals";
  auto repeats = wholeNumber(args, "repeat", 1, 1, 50);
  if (!repeats) return repeats.error();
  o.repeats = *repeats;
  auto threshold = wholeNumber(args, "threshold", 5, 0, 100);
  if (!threshold) return threshold.error();
  o.threshold = *threshold / 100.0;
  if (auto file = args.value("baseline")) {
    auto b = readBaseline(*file);
    if (!b) return b.error();
    o.baseline = std::move(*b);
  }
  auto out = pipeline::prepareOutDir(args.value("out"), o.repo, "eval-" + pipeline::makeRunId(env), env);
  if (!out) return out.error();
  o.out = *out;
  return o;
}

// The table or the JSON on stdout; the Markdown to GITHUB_STEP_SUMMARY and --markdown.
Status writeReport(const eval::EvalReport& report, const Args& args, Io& io) {
  if (io.json)
    printJson(io.out, eval::toJson(report));
  else
    io.out << eval::renderTable(report);
  const std::string markdown = eval::renderMarkdown(report);
  if (auto file = args.value("markdown"))
    if (auto s = writeFileAtomic(*file, markdown); !s) return s;
  if (auto summary = io.env.get("GITHUB_STEP_SUMMARY"); summary && !summary->empty())
    if (auto s = github::appendStepSummary(*summary, markdown + "\n"); !s) return s;
  return Ok{};
}

// 8 when the baseline shows a regression, 1 when a case could not run.
int verdict(const eval::EvalReport& report, const EvalOptions& o, Io& io) {
  if (o.baseline) {
    auto regressions = eval::compareWithBaseline(report, *o.baseline, o.threshold);
    if (!regressions) return reportError(io, regressions.error());
    if (!regressions->empty()) {
      for (const std::string& line : *regressions) io.err << "loopwright eval: regression: " << line << "\n";
      Io errIo{io.err, io.err, io.env, false};
      return reportError(errIo, makeError(ErrorCode::EvalRegression,
                                          std::to_string(regressions->size()) + " metric(s) fell since the baseline",
                                          "see the lines above; --threshold sets how far a metric may fall"));
    }
  }
  for (const eval::CaseSummary& c : report.caseRuns)
    if (!c.error.empty()) return kExitFindings;
  return kExitOk;
}

int evalMain(const Args& args, Io& io) {
  std::jthread libgit2Init([] { verify::ensureLibGit2(); });
  auto options = evalOptions(args, io.env);
  if (!options) return reportError(io, options.error());
  libgit2Init.join();
  auto loaded = eval::loadCases(options->cases);
  if (!loaded) return reportError(io, loaded.error());
  RunPathCaseRunner runner(options->repo, options->out, args.value("taskpack"), io.env);
  std::vector<eval::CaseRun> runs = eval::runCases(options->repo, *loaded, options->repeats, runner, io.err);
  std::vector<eval::EvalCase> cases;
  for (const eval::LoadedCase& lc : *loaded) cases.push_back(lc.spec);
  if (auto lane = args.value("lane")) eval::keepLane(cases, runs, *lane);
  eval::EvalReport report = eval::buildReport(cases, runs, runner.prices(), options->repeats);
  if (auto s = writeReport(report, args, io); !s) return reportError(io, s.error());
  io.err << "loopwright eval: runs kept in " << options->out.string() << "\n";
  return verdict(report, *options, io);
}

}  // namespace

Command evalCommand() {
  Command c;
  c.name = "eval";
  c.summary = "measure the taskpack's review on cases with known answers: precision, recall, cost, time";
  c.usage = "[--cases DIR] [--repo DIR] [--lane NAME] [--repeat N] [--baseline FILE] [--threshold PCT] [--json]";
  c.description =
      "Runs every case under --cases (default <repo>/.loopwright/evals/<case>/case.yaml) through\n"
      "the taskpack exactly as `run` does, with nothing published, matches the findings to each\n"
      "case's answers and reports per step, per lane and for the whole run (docs/evals.md).\n"
      "Exit 8 when --baseline shows precision or recall fell by more than --threshold points.";
  c.options = {{"cases", "DIR", "the cases' directory (default <repo>/.loopwright/evals)"},
               {"repo", "DIR", "the repository the cases' revisions are in (default .)"},
               {"taskpack", "P", "a taskpack file to use instead of each base commit's"},
               {"lane", "NAME", "score only the steps on this model lane"},
               {"repeat", "N", "run each case N times (1-50, default 1): models are not deterministic"},
               {"baseline", "FILE", "an earlier --json report: exit 8 when precision or recall fell"},
               {"threshold", "PCT", "how many percentage points a metric may fall (default 5)"},
               {"markdown", "FILE", "also write the Markdown summary to FILE"},
               {"out", "DIR", "where the runs go (outside the repository)"}};
  c.run = evalMain;
  return c;
}

}  // namespace lw::cli
