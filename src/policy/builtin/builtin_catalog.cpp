#include "policy/builtin/builtin_catalog.h"
#include "policy/model/tool_names.h"

namespace lw {

namespace {

std::vector<BuiltinStep> makeCatalog() {
  using P = BuiltinParam;
  using T = ParamType;
  const std::vector<std::string_view> severities = {"error", "warning", "notice"};
  // A table: one parameter a line, as docs/builtin-steps.md lists them.
  // clang-format off
  return {
      {"security",
       "deterministic rules on the changed lines: secrets, GitHub Actions risks, new dependencies",
       Role::Reviewer,
       {tools::kGithubPullsDiff, tools::kGithubPullsFiles, tools::kGithubFile},
       false,
       {
           P{"disable", T::StringList, "[]", "rule ids (or prefixes ending in '/') not to run", {}, 0, 0},
           P{"minSeverity", T::Enum, "\"notice\"", "findings below this severity are dropped", severities, 0, 0},
           P{"dependencies", T::Boolean, "true", "report new or changed dependencies in manifests and lock files", {}, 0, 0},
           P{"maxFindings", T::Integer, "200", "at most this many findings, the most severe first", {}, 1, 1000},
           P{"persona", T::Enum, "\"default\"", "which rules report: default (flaws), pedantic (and hygiene), auditor (and what needs a person to judge)", {"default", "pedantic", "auditor"}, 0, 0},
       },
       std::nullopt,  // isolation: the taskpack's
       std::nullopt},  // networkMode: the taskpack's
      {"lint",
       "runs a linter inside the sandbox and imports what it prints (SARIF, rdjson, checkstyle, lines)",
       Role::Reviewer,
       {tools::kGithubPullsDiff},
       false,
       {
           P{"command", T::StringList, "", "the linter's argv, run in the workspace", {}, 0, 0},
           P{"format", T::Enum, "", "what the linter prints", {"sarif", "rdjson", "rdjsonl", "checkstyle", "pattern"}, 0, 0},
           P{"pattern", T::String, "\"%f:%l:%c: %m\"", "for format: pattern, the line shape (%f file, %l line, %c column, %s severity, %r rule, %m message)", {}, 0, 0},
           P{"filterMode", T::Enum, "\"added\"", "which findings are kept, as reviewdog does", {"added", "diff_context", "file", "nofilter"}, 0, 0},
           P{"severity", T::Enum, "\"warning\"", "the severity of findings that carry none", severities, 0, 0},
           P{"rulePrefix", T::String, "\"lint\"", "prefix of the imported rule ids (lint/<rule>)", {}, 0, 0},
           P{"maxFindings", T::Integer, "200", "at most this many findings", {}, 1, 1000},
       },
       std::nullopt,  // isolation: the taskpack's
       std::nullopt},  // networkMode: the taskpack's
      {"review",
       "a model reviews the pull request's diff, file by file within a token budget",
       Role::Reviewer,
       {tools::kGithubPull, tools::kGithubPullsDiff, tools::kGithubPullsFiles, tools::kGithubFile,
        tools::kModelComplete},
       true,
       {
           P{"maxFiles", T::Integer, "50", "review at most this many files; the rest are listed as skipped", {}, 1, 1000},
           P{"maxTokens", T::Integer, "60000", "the step's token budget (prompt and answer); partial results past it", {}, 1000, 2000000},
           P{"chunkTokens", T::Integer, "6000", "the largest piece of diff sent in one request", {}, 500, 200000},
           P{"maxFindings", T::Integer, "25", "at most this many findings, the most severe and confident first", {}, 1, 1000},
           P{"minSeverity", T::Enum, "\"notice\"", "findings below this severity are dropped", severities, 0, 0},
           P{"minConfidence", T::Number, "0.6", "findings the model is less sure of are dropped", {}, 0, 1},
           P{"exclude", T::StringList, "[]", "more globs not to review (generated, vendored and lock files never are)", {}, 0, 0},
           P{"instructions", T::String, "\".loopwright/review.md\"", "the repository's review instructions, read at the base commit (else AGENTS.md, CLAUDE.md)", {}, 0, 0},
       },
       std::nullopt,  // isolation: the taskpack's
       std::nullopt},  // networkMode: the taskpack's
      {"triage",
       "labels from the repository's own, likely duplicates, missing information against the issue forms",
       Role::Triage,
       {tools::kGithubIssue, tools::kGithubLabels, tools::kGithubIssuesSearch, tools::kGithubFile},
       false,
       {
           P{"duplicateThreshold", T::Number, "0.5", "similarity (0..1) from which an issue is called a likely duplicate", {}, 0, 1},
           P{"maxDuplicates", T::Integer, "3", "at most this many duplicates listed", {}, 0, 10},
           P{"labels", T::Boolean, "true", "propose labels (only ones the repository has)", {}, 0, 0},
           P{"useModel", T::Boolean, "false", "ask the step's lane to choose labels, only among the repository's (model.complete is then granted; the step needs a lane)", {}, 0, 0},
           P{"checkForms", T::Boolean, "true", "check the issue against the required fields of .github/ISSUE_TEMPLATE/*.yml", {}, 0, 0},
       },
       std::nullopt,  // isolation: the taskpack's
       std::nullopt},  // networkMode: the taskpack's
      {"reproduce",
       "runs the reproduction an issue gives (a sh, bash, python or javascript block) and reports reproduced, not reproduced or could not run",
       Role::Triage,
       {tools::kGithubIssue},
       false,
       {
           P{"wallTimeMs", T::Integer, "60000", "the reproduction's wall time; past it, it is killed (could not run)", {}, 1000, 3600000},
           P{"maxOutputBytes", T::Integer, "65536", "what it may print (stdout and stderr); past it, it is killed (could not run)", {}, 1024, 16777216},
           P{"commentLines", T::Integer, "40", "the last lines of its output shown in the comment", {}, 1, 500},
           P{"fields", T::StringList, R"(["Steps to reproduce", "Reproduction", "To reproduce", "How to reproduce", "Reproduction steps"])", "issue-form headings whose fenced block is the reproduction (else the body's first runnable block)", {}, 0, 0},
           P{"errorFields", T::StringList, R"(["Actual behaviour", "Actual behavior", "Actual result", "Error", "Error message"])", "issue-form headings whose first line is the error the reporter saw", {}, 0, 0},
           P{"labels", T::Boolean, "true", "propose reproduced, not-reproduced or needs-repro", {}, 0, 0},
       },
       Isolation::L3,
       NetworkMode::None},
  };
  // clang-format on
}

}  // namespace

const std::vector<BuiltinStep>& builtinSteps() {
  static const std::vector<BuiltinStep> catalog = makeCatalog();
  return catalog;
}

const BuiltinStep* findBuiltinStep(std::string_view name) {
  for (const BuiltinStep& s : builtinSteps())
    if (s.name == name) return &s;
  return nullptr;
}

const BuiltinParam* findParam(const BuiltinStep& step, std::string_view name) {
  for (const BuiltinParam& p : step.params)
    if (p.name == name) return &p;
  return nullptr;
}

std::string_view toString(ParamType t) {
  switch (t) {
    case ParamType::String: return "string";
    case ParamType::Integer: return "integer";
    case ParamType::Number: return "number";
    case ParamType::Boolean: return "boolean";
    case ParamType::StringList: return "list of strings";
    case ParamType::Enum: return "one of";
  }
  return "?";
}

}  // namespace lw
