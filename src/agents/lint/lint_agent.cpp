#include "agents/lint/lint_agent.h"

#include <boost/json/object.hpp>

#include "agents/lint/diff_filter.h"
#include "agents/lint/lint_findings.h"
#include "agents/output.h"
#include "diff/unified_diff.h"
#include "policy/model/tool_names.h"

namespace lw::agents::lint {

namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

void logError(std::ostream& log, const Error& e) {
  log << "builtin/lint: error[" << codeName(e.code) << "] ";
  if (e.location && e.location->known()) {
    std::string where = e.location->toString();
    if (!where.empty()) log << where << ": ";
    if (!e.location->path.empty() && e.location->path != where) log << "(" << e.location->path << ") ";
  }
  log << e.message << "\n";
  if (!e.hint.empty()) log << "  hint: " << e.hint << "\n";
}

Error linterFailed(const LintParams& params, const LinterRun& run, const std::string& why) {
  std::string message =
      "the linter '" + params.command.front() + "' exited with status " + std::to_string(run.exitCode) + " and " + why;
  if (!run.stderrTail.empty()) message += "; the end of its stderr:\n" + run.stderrTail;
  return makeError(ErrorCode::SandboxLaunchFailed, message,
                   "run the command locally in the repository; check `with: format` (" + params.formatName + ")",
                   "with.command");
}

// The pull request's full diff (not the part since the last reviewed head:
// a linter's findings are deduplicated by the publisher, and reviewdog
// filters against the whole pull request).
Result<DiffLines> pullRequestDiff(BridgeClient& bridge, std::ostream& log) {
  Result<json::value> answer = bridge.call(tools::kGithubPullsDiff, json::object{{"full", true}});
  if (!answer) return answer.error();
  const json::object* o = answer->if_object();
  const json::value* text = o ? o->if_contains("diff") : nullptr;
  if (text == nullptr || !text->is_string()) {
    return makeError(ErrorCode::OutputInvalid, "github.pulls.diff answered without a diff", "",
                     tools::kGithubPullsDiff);
  }
  if (const json::value* t = o->if_contains("truncated"); t && t->is_bool() && t->as_bool()) {
    log << "builtin/lint: the pull request's diff was truncated; findings on the files past the cut are "
           "filtered as if those files were unchanged\n";
  }
  Result<diff::DiffIndex> index = diff::DiffIndex::parse(text->as_string());
  if (!index) return index.error();
  return DiffLines::of(*index);
}

std::vector<fs::path> workspaceRoots(const fs::path& workspace) {
  std::vector<fs::path> roots{fs::absolute(workspace)};
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(workspace, ec);
  if (!ec && resolved != roots.front()) roots.push_back(resolved);
  return roots;
}

void logImport(std::ostream& log, const ParsedOutput& parsed, const Conversion& converted) {
  log << "builtin/lint: " << parsed.diagnostics.size() << " diagnostics read";
  if (parsed.ignored > 0) log << ", " << parsed.ignored << " lines or results ignored";
  if (parsed.dropped > 0) log << ", " << parsed.dropped << " past the limit of " << kMaxDiagnostics << " dropped";
  log << "\n";
  for (const std::string& path : converted.outsidePaths) {
    log << "builtin/lint: dropped a finding on '" << path << "', outside the repository\n";
  }
}

Result<std::vector<Finding>> findingsOf(AgentContext& ctx, const LintParams& params, const ParsedOutput& parsed) {
  Conversion converted =
      toFindings(parsed.diagnostics, FindingOptions{params.severity, params.rulePrefix, workspaceRoots(ctx.workspace)});
  logImport(ctx.log, parsed, converted);
  std::vector<Finding> findings = std::move(converted.findings);
  std::size_t read = findings.size();
  if (params.filterMode != FilterMode::NoFilter) {
    Result<DiffLines> diff = pullRequestDiff(ctx.bridge, ctx.log);
    if (!diff) return diff.error();
    findings = filterFindings(std::move(findings), *diff, params.filterMode);
  }
  ctx.log << "builtin/lint: " << findings.size() << " of " << read << " findings kept by filterMode\n";
  if (findings.size() > params.maxFindings) {
    ctx.log << "builtin/lint: only the " << params.maxFindings << " most severe are reported (maxFindings)\n";
  }
  return mostSevere(std::move(findings), params.maxFindings);
}

}  // namespace

Result<ParsedOutput> importRun(const LintParams& params, const LinterRun& run) {
  if (run.outputTruncated) return outputTooLarge(params.formatName, kMaxOutputBytes + 1);
  bool blank = run.output.find_first_not_of(" \t\r\n") == std::string::npos;
  if (blank) {
    if (run.exitCode != 0) return linterFailed(params, run, "printed nothing");
    return ParsedOutput{};
  }
  Result<ParsedOutput> parsed = parseOutput(params, run.output);
  if (!parsed && run.exitCode != 0) {
    return linterFailed(params, run, "printed no " + params.formatName + " output (" + parsed.error().message + ")");
  }
  // Line formats never fail to parse: a failing linter shows as a non-zero
  // exit with nothing matched.
  if (parsed && run.exitCode != 0 && parsed->diagnostics.empty() && parsed->ignored > 0) {
    return linterFailed(params, run, "printed no line that `with: pattern` matches");
  }
  return parsed;
}

}  // namespace lw::agents::lint

namespace lw::agents {

int runLintAgent(AgentContext& ctx) {
  Result<lint::LintParams> params = lint::readLintParams(ctx.params);
  if (!params) return lint::logError(ctx.log, params.error()), 1;
  Result<lint::LinterRun> run = lint::runLinter(params->command, ctx.workspace, lint::kMaxOutputBytes, ctx.log);
  if (!run) return lint::logError(ctx.log, run.error()), 1;
  Result<lint::ParsedOutput> parsed = lint::importRun(*params, *run);
  if (!parsed) return lint::logError(ctx.log, parsed.error()), 1;
  Result<std::vector<Finding>> findings = lint::findingsOf(ctx, *params, *parsed);
  if (!findings) return lint::logError(ctx.log, findings.error()), 1;
  Status written = writeFindings(ctx.outDir, *findings);
  if (!written) return lint::logError(ctx.log, written.error()), 1;
  return 0;
}

}  // namespace lw::agents
