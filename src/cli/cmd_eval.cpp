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
#include "cli/error_report.h"
#include "cli/exit_codes.h"
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

// The report of every lane asked for (`--lane`, repeatable), or of the
// taskpack's own lanes (one report, lane "").
using Reports = std::vector<eval::LaneReport>;

bool boundToLanes(const Reports& r) { return r.size() > 1 || !r.front().lane.empty(); }

// The table or the JSON on stdout; the Markdown to GITHUB_STEP_SUMMARY and --markdown.
Status writeReport(const Reports& reports, const Args& args, Io& io) {
  const bool bound = boundToLanes(reports);
  if (io.json)
    printJson(io.out, bound ? eval::toJson(reports) : eval::toJson(reports.front().report));
  else
    io.out << (bound ? eval::renderSideBySide(reports) : eval::renderTable(reports.front().report));
  const std::string markdown = bound ? eval::renderMarkdown(reports) : eval::renderMarkdown(reports.front().report);
  if (auto file = args.value("markdown"))
    if (auto s = writeFileAtomic(*file, markdown); !s) return s;
  if (auto summary = io.env.get("GITHUB_STEP_SUMMARY"); summary && !summary->empty())
    if (auto s = github::appendStepSummary(*summary, markdown + "\n"); !s) return s;
  return Ok{};
}

Result<std::vector<std::string>> regressions(const Reports& reports, const boost::json::value& baseline,
                                             double threshold) {
  if (boundToLanes(reports)) return eval::compareWithBaseline(reports, baseline, threshold);
  return eval::compareWithBaseline(reports.front().report, baseline, threshold);
}

// 8 when the baseline shows a regression, 1 when a case could not run.
int verdict(const Reports& reports, const EvalOptions& o, Io& io) {
  if (o.baseline) {
    auto fell = regressions(reports, *o.baseline, o.threshold);
    if (!fell) return reportError(io, fell.error());
    if (!fell->empty()) {
      for (const std::string& line : *fell) io.err << "loopwright eval: regression: " << line << "\n";
      Io errIo{io.err, io.err, io.env, false};
      return reportError(errIo, makeError(ErrorCode::EvalRegression,
                                          std::to_string(fell->size()) + " metric(s) fell since the baseline",
                                          "see the lines above; --threshold sets how far a metric may fall"));
    }
  }
  for (const eval::LaneReport& r : reports)
    for (const eval::CaseSummary& c : r.report.caseRuns)
      if (!c.error.empty()) return kExitFindings;
  return kExitOk;
}

// Runs every case once per lane asked for (or once on the taskpack's own
// lanes) and reports each. A --lane the taskpack lacks stops eval with its
// error (exit 2) rather than report every case as not run.
Result<Reports> runEveryLane(const Args& args, const EvalOptions& options, const std::vector<eval::LoadedCase>& loaded,
                             Io& io) {
  std::vector<std::optional<std::string>> lanes;
  for (const std::string& lane : args.values("lane")) lanes.emplace_back(lane);
  if (lanes.empty()) lanes.emplace_back(std::nullopt);
  std::vector<eval::EvalCase> cases;
  for (const eval::LoadedCase& lc : loaded) cases.push_back(lc.spec);
  RunPathCaseRunner runner(options.repo, options.out, args.value("taskpack"), io.env);
  std::vector<std::vector<eval::CaseRun>> runs;
  for (const auto& lane : lanes) {
    if (lane) io.err << "loopwright eval: every step that calls a model on lane " << *lane << "\n";
    runner.bindLane(lane);
    runs.push_back(eval::runCases(options.repo, loaded, options.repeats, runner, io.err));
    if (runner.laneError()) return *runner.laneError();
  }
  Reports reports;
  for (std::size_t i = 0; i < lanes.size(); ++i)
    reports.push_back({lanes[i].value_or(""), eval::buildReport(cases, runs[i], runner.prices(), options.repeats)});
  return reports;
}

int evalMain(const Args& args, Io& io) {
  std::jthread libgit2Init([] { verify::ensureLibGit2(); });
  auto options = evalOptions(args, io.env);
  if (!options) return reportError(io, options.error());
  libgit2Init.join();
  auto loaded = eval::loadCases(options->cases);
  if (!loaded) return reportError(io, loaded.error());
  auto reports = runEveryLane(args, *options, *loaded, io);
  if (!reports) return reportError(io, reports.error());
  if (auto s = writeReport(*reports, args, io); !s) return reportError(io, s.error());
  io.err << "loopwright eval: runs kept in " << options->out.string() << "\n";
  return verdict(*reports, *options, io);
}

}  // namespace

Command evalCommand() {
  Command c;
  c.name = "eval";
  c.summary = "measure the taskpack's review on cases with known answers: precision, recall, cost, time";
  c.usage = "[--cases DIR] [--repo DIR] [--lane NAME]... [--repeat N] [--baseline FILE] [--threshold PCT] [--json]";
  c.description =
      "Runs every case under --cases (default <repo>/.loopwright/evals/<case>/case.yaml) through\n"
      "the taskpack exactly as `run` does, with nothing published, matches the findings to each\n"
      "case's answers and reports per step, per lane and for the whole run (docs/evals.md).\n"
      "Exit 8 when --baseline shows precision or recall fell by more than --threshold points.";
  c.options = {
      {"cases", "DIR", "the cases' directory (default <repo>/.loopwright/evals)"},
      {"repo", "DIR", "the repository the cases' revisions are in (default .)"},
      {"taskpack", "P", "a taskpack file to use instead of each base commit's"},
      {"lane", "NAME", "run every step that calls a model on this lane (repeatable: lanes side by side)", true},
      {"repeat", "N", "run each case N times (1-50, default 1): models are not deterministic"},
      {"baseline", "FILE", "an earlier --json report: exit 8 when precision or recall fell"},
      {"threshold", "PCT", "how many percentage points a metric may fall (default 5)"},
      {"markdown", "FILE", "also write the Markdown summary to FILE"},
      {"out", "DIR", "where the runs go (outside the repository)"}};
  c.run = evalMain;
  return c;
}

}  // namespace lw::cli
