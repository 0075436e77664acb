#include "agents/security/scan/scan.h"

#include <algorithm>
#include <tuple>

#include "agents/security/file_rules/config_file_rules.h"
#include "agents/security/file_rules/dependency_rules.h"
#include "agents/security/file_rules/shell_rules.h"
#include "agents/security/rules.h"
#include "agents/security/text.h"
#include "agents/security/workflow/workflow_model.h"
#include "agents/security/workflow_rules/agentic_workflow_rules.h"
#include "agents/security/workflow_rules/workflow_rules.h"
#include "verify/secrets/secret_scanner.h"

namespace lw::agents::security {

namespace {

bool isShebangShell(std::string_view firstLine) {
  if (!firstLine.starts_with("#!")) return false;
  for (std::string_view sh : {"/sh", "bash", "zsh", "ksh", "dash"})
    if (firstLine.find(sh) != std::string_view::npos) return true;
  return false;
}

// The secret scanner over the added lines only, joined in order so that a
// multi-line key added at once is seen whole; each hit maps back to its line.
std::vector<Finding> secretFindings(const ChangedFile& f) {
  static const verify::SecretScanner scanner;
  std::string text;
  for (const std::string& l : f.addedText) text.append(l).push_back('\n');
  std::vector<Finding> out;
  for (const verify::SecretHit& hit : scanner.scanAndMask(text).hits) {
    if (hit.line < 1 || static_cast<std::size_t>(hit.line) > f.addedLines.size()) continue;
    int line = f.addedLines[static_cast<std::size_t>(hit.line - 1)];
    out.push_back(toFinding({"security/secret", "A `" + hit.kind + "` is added on this line.", {line}}, f.path, line));
  }
  return out;
}

// Parsing a file cut short would check its beginning as if it were all of
// it: such a file is not parsed, and reported as not read.
Error cutShort(const ChangedFile& f, const FileLines& lines) {
  Error e = makeError(ErrorCode::OutputInvalid,
                      "is cut short by github.file's 1 MiB bound after " + std::to_string(f.content.size()) + " bytes");
  e.location = Location{"", static_cast<int>(lines.size()), 0, ""};
  return e;
}

Result<WorkflowModel> workflowModelOf(const ChangedFile& f, bool isAction, const FileLines& lines) {
  if (!f.truncated) return parseWorkflow(f.content, isAction);
  return cutShort(f, lines);
}

// The workflow rules' hits, or the one unparsed-workflow hit and, in
// `unchecked`, why the rules could not read the file.
std::vector<RuleHit> workflowFileHits(const ChangedFile& f, bool isAction, const FileLines& lines,
                                      std::string_view owner, const CallerInputs* callers, std::string& unchecked) {
  Result<WorkflowModel> model = workflowModelOf(f, isAction, lines);
  if (model && callers != nullptr) {
    auto passed = callers->find(calleeKey(f.path, isAction));
    if (passed != callers->end()) model->attackerInputs = passed->second;
  }
  if (model) return workflowHits(*model, lines, owner);
  unchecked = unreadableReason(model.error());
  return {unparsedWorkflowHit(model.error(), isAction, f.addedLines)};
}

// A configuration file's rules' hits, or, as for a workflow, the one
// unparsed-workflow hit and why in `unchecked`.
std::vector<RuleHit> configFileHitsOf(FileKind kind, const ChangedFile& f, const FileLines& lines,
                                      std::string& unchecked) {
  bool dependabot = kind == FileKind::Dependabot;
  Result<std::vector<RuleHit>> hits = f.truncated
                                          ? Result<std::vector<RuleHit>>(cutShort(f, lines))
                                          : configFileHits(f.content, dependabot ? dependabotHits : preCommitHits);
  if (hits) return std::move(hits).value();
  unchecked = unreadableReason(hits.error());
  return {unparsedFileHit(hits.error(), dependabot ? "Dependabot configuration" : "pre-commit configuration",
                          dependabot ? "the Dependabot rules" : "the pre-commit rules", f.addedLines)};
}

std::vector<RuleHit> hitsFor(FileKind kind, const ChangedFile& f, const FileLines& lines, std::string_view owner,
                             const CallerInputs* callers, std::string& unchecked) {
  switch (kind) {
    case FileKind::Workflow:
    case FileKind::Action: return workflowFileHits(f, kind == FileKind::Action, lines, owner, callers, unchecked);
    case FileKind::ShellScript:
    case FileKind::Dockerfile:
    case FileKind::Makefile: return curlPipeShellHits(lines, 1);
    case FileKind::Manifest: return dependencyHits(f.path, lines);
    case FileKind::AgenticWorkflow: return agenticWorkflowHits(lines);
    case FileKind::Taskpack: return taskpackHits(f.content);
    case FileKind::Dependabot:
    case FileKind::PreCommit: return configFileHitsOf(kind, f, lines, unchecked);
    case FileKind::Other: break;
  }
  return {};
}

// Whether the options keep a finding: its rule enabled, severe enough, and
// of the selected persona or one before it.
bool kept(const Finding& f, const ScanOptions& options) {
  const RuleInfo* rule = findRule(f.ruleId);
  bool inPersona = rule == nullptr || rule->persona <= options.persona;
  return inPersona && !isDisabled(f.ruleId, options) && f.severity <= options.minSeverity;
}

bool severer(const Finding& a, const Finding& b) {
  return std::tie(a.severity, a.path, a.line, a.ruleId, a.message) <
         std::tie(b.severity, b.path, b.line, b.ruleId, b.message);
}

}  // namespace

FileKind classify(std::string_view path, std::string_view firstLine) {
  std::string_view n = baseName(path);
  std::string_view dir = path.substr(0, path.size() - n.size());
  if (dir == ".github/workflows/" && (n.ends_with(".yml") || n.ends_with(".yaml"))) return FileKind::Workflow;
  if (n == "action.yml" || n == "action.yaml") return FileKind::Action;
  if (isAgenticWorkflowPath(path)) return FileKind::AgenticWorkflow;
  if (isTaskpackPath(path)) return FileKind::Taskpack;
  if (isDependabotPath(path)) return FileKind::Dependabot;
  if (isPreCommitPath(path)) return FileKind::PreCommit;
  if (!dependencyEcosystem(path).empty()) return FileKind::Manifest;
  if (n == "Dockerfile" || n.starts_with("Dockerfile.") || n.ends_with(".Dockerfile") || n == "Containerfile")
    return FileKind::Dockerfile;
  if (n == "Makefile" || n == "GNUmakefile" || n == "makefile" || n.ends_with(".mk")) return FileKind::Makefile;
  if (n.ends_with(".sh") || n.ends_with(".bash") || n.ends_with(".zsh") || isShebangShell(firstLine))
    return FileKind::ShellScript;
  return FileKind::Other;
}

std::string_view kindName(FileKind kind) {
  switch (kind) {
    case FileKind::Workflow: return "workflow";
    case FileKind::Action: return "action";
    case FileKind::ShellScript: return "shell script";
    case FileKind::Dockerfile: return "Dockerfile";
    case FileKind::Makefile: return "Makefile";
    case FileKind::Manifest: return "manifest";
    case FileKind::Other: break;
    case FileKind::AgenticWorkflow: return "agentic workflow";
    case FileKind::Taskpack: return "taskpack";
    case FileKind::Dependabot: return "Dependabot configuration";
    case FileKind::PreCommit: return "pre-commit configuration";
  }
  return "other (added lines only)";
}

bool needsContent(FileKind kind) { return kind != FileKind::Other; }

bool isDisabled(std::string_view ruleId, const ScanOptions& options) {
  for (const std::string& d : options.disabled) {
    if (d == ruleId) return true;
    if (d.ends_with("/") && ruleId.starts_with(d)) return true;
  }
  return !options.dependencies && ruleId == "security/new-dependency";
}

FileScan scanFile(const ChangedFile& f, std::string_view repositoryOwner, const CallerInputs* callers) {
  FileLines lines = f.lines();
  FileKind kind = classify(f.path, lines.empty() ? std::string_view{} : lines.front());
  FileScan out{secretFindings(f), {}, kind};
  for (const RuleHit& hit : hitsFor(kind, f, lines, repositoryOwner, callers, out.unchecked)) {
    auto anchor = std::find_if(hit.anchors.begin(), hit.anchors.end(), [&](int l) { return f.isAdded(l); });
    if (anchor != hit.anchors.end()) out.findings.push_back(toFinding(hit, f.path, *anchor));
  }
  return out;
}

ScanResult scanPullRequest(const std::vector<ChangedFile>& files, const ScanOptions& options) {
  ScanResult result;
  std::vector<Finding>& out = result.findings;
  const CallerInputs callers = callerInputsOf(files);
  for (const ChangedFile& f : files) {
    FileScan scan = scanFile(f, options.repositoryOwner, &callers);
    ++result.kinds[scan.kind];
    if (!scan.unchecked.empty()) result.unchecked.push_back({f.path, std::move(scan.unchecked)});
    for (Finding& finding : scan.findings)
      if (kept(finding, options)) out.push_back(std::move(finding));
  }
  std::sort(out.begin(), out.end(), severer);
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Finding& a, const Finding& b) { return !severer(a, b) && !severer(b, a); }),
            out.end());
  if (out.size() > static_cast<std::size_t>(std::max(options.maxFindings, 0)))
    out.resize(static_cast<std::size_t>(std::max(options.maxFindings, 0)));
  return result;
}

std::optional<Coverage> coverageOf(const ScanResult& scan, const ScanOptions& options) {
  if (scan.unchecked.empty()) return std::nullopt;
  Coverage c;
  for (const UncheckedFile& f : scan.unchecked)
    c.files.push_back({f.path, FileReview::Skipped, "not checked: " + f.reason});
  c.complete = isDisabled("security/unparsed-workflow", options);
  if (!c.complete)
    c.reason = std::to_string(scan.unchecked.size()) + " workflow, action or configuration file(s) could not be " +
               "read, so their rules were not checked";
  return c;
}

std::string scanSummary(const ScanResult& scan, const ScanOptions& options) {
  std::string scanned;
  for (const auto& [kind, count] : scan.kinds)
    scanned.append(scanned.empty() ? "" : ", ").append(std::to_string(count) + " ").append(kindName(kind));
  std::string notRun;
  std::size_t ran = 0, laterPersona = 0;
  for (const RuleInfo& r : allRules()) {
    if (r.persona > options.persona) {
      ++laterPersona;  // counted, not named: a persona leaves out whole groups
      continue;
    }
    bool runs = !isDisabled(r.id, options) && r.severity <= options.minSeverity;
    ran += runs;
    if (!runs) notRun.append(notRun.empty() ? ", not " : ", ").append(r.id);
  }
  std::string persona = laterPersona == 0 ? std::string()
                                          : " (" + std::to_string(laterPersona) + " of personas after " +
                                                std::string(toString(options.persona)) + " left out)";
  return "scanned: " + (scanned.empty() ? std::string("nothing") : scanned) + "; rules run: " + std::to_string(ran) +
         " of " + std::to_string(allRules().size()) + persona + notRun;
}

std::vector<Finding> scanChangedFiles(const std::vector<ChangedFile>& files, const ScanOptions& options) {
  return scanPullRequest(files, options).findings;
}

}  // namespace lw::agents::security
