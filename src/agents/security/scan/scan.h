// The security rule engine: the pull request's changed files in, findings
// out, only on lines the pull request added. Pure: no bridge, no disk.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/security/changed_file.h"
#include "agents/security/rules.h"
#include "agents/security/workflow/caller_inputs.h"
#include "core/finding.h"
#include "core/step_coverage.h"

namespace lw::agents::security {

enum class FileKind {
  Workflow,
  Action,
  ShellScript,
  Dockerfile,
  Makefile,
  Manifest,
  Other,
  AgenticWorkflow,  // gh-aw: .github/workflows/*.md
  Taskpack,         // .loopwright/taskpack.yaml
  Dependabot,       // .github/dependabot.yml
  PreCommit,        // .pre-commit-config.yaml
};

// How the scan log names a kind ("workflow", "Dependabot configuration").
std::string_view kindName(FileKind kind);

// By path (and, for a script without an extension, its `#!` first line).
FileKind classify(std::string_view path, std::string_view firstLine = {});

// Whether the rules for a file of this kind read it whole (its content at
// head); the secret rule reads the added lines only.
bool needsContent(FileKind kind);

struct ScanOptions {
  std::vector<std::string> disabled;  // rule ids, or prefixes ending in '/'
  Severity minSeverity = Severity::Notice;
  bool dependencies = true;  // security/new-dependency
  int maxFindings = 200;
  std::string repositoryOwner;         // for secrets: inherit; empty = unknown
  Persona persona = Persona::Default;  // rules of a later persona are not reported
};

bool isDisabled(std::string_view ruleId, const ScanOptions& options);

// A changed file whose workflow (or configuration file) rules did not run, and why (what the parser
// said and where, or that it was too large to read whole).
struct UncheckedFile {
  std::string path;
  std::string reason;
};

struct ScanResult {
  std::vector<Finding> findings;
  std::vector<UncheckedFile> unchecked;  // in the order of `files`, whatever the options
  std::map<FileKind, int> kinds;         // how many files of each kind were scanned
};

// Every finding of every rule on `files`, on added lines, without the
// disabled rules, those below minSeverity or those of a persona after
// options.persona; the most severe first (then by
// path and line), at most maxFindings. And the files the workflow rules
// could not read.
ScanResult scanPullRequest(const std::vector<ChangedFile>& files, const ScanOptions& options);

// The step's coverage.json when some file was not checked (nullopt when
// every file was): those files as skipped, with why; incomplete unless the
// taskpack disabled security/unparsed-workflow. The files that were checked
// are not listed: a file listed as reviewed lets the run resolve any step's
// earlier comments in it (docs/review-coverage.md).
std::optional<Coverage> coverageOf(const ScanResult& scan, const ScanOptions& options);

// What a scan looked at, for the step's log: the files by kind and the
// rules that ran ("scanned: 2 workflow, 1 manifest, 3 other (added lines
// only); rules run: 44 of 51 (6 of personas after default left out), not
// security/new-dependency"). coverage.json
// cannot say it: a file listed there as reviewed lets the run resolve other
// steps' comments in it (coverageOf).
std::string scanSummary(const ScanResult& scan, const ScanOptions& options);

// scanPullRequest's findings.
std::vector<Finding> scanChangedFiles(const std::vector<ChangedFile>& files, const ScanOptions& options);

// One file's findings, before options apply; `unchecked` empty when every
// rule for its kind ran.
struct FileScan {
  std::vector<Finding> findings;
  std::string unchecked;
  FileKind kind = FileKind::Other;
};
// `callers`: what the pull request's callers pass to its own reusable
// workflows and actions (caller_inputs.h); null when none is known.
FileScan scanFile(const ChangedFile& file, std::string_view repositoryOwner, const CallerInputs* callers = nullptr);

}  // namespace lw::agents::security
