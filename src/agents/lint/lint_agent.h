// builtin/lint: runs the configured linter in the workspace, imports what it
// prints (SARIF, rdjson, rdjsonl, checkstyle, or lines by a pattern), keeps
// the findings reviewdog's filter mode keeps against the pull request's
// diff (github.pulls.diff), and writes findings.json.
#pragma once

#include "agents/agent.h"
#include "agents/lint/lint_diagnostic.h"
#include "agents/lint/lint_params.h"
#include "agents/lint/linter_process.h"

namespace lw::agents::lint {

// What the linter's run amounts to: its parsed output, or the step's
// failure. A non-zero exit with readable output is normal (linters exit 1
// on findings); with unreadable or no output it fails, quoting stderr.
Result<ParsedOutput> importRun(const LintParams& params, const LinterRun& run);

}  // namespace lw::agents::lint

namespace lw::agents {

// 0 when the linter ran and its output was imported (its findings may fail
// the run later); 1 when the parameters are wrong, the linter is missing,
// or it failed without printing anything the format can read (the reason,
// with the linter's stderr tail, is in the log).
int runLintAgent(AgentContext& ctx);

}  // namespace lw::agents
