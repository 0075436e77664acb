// The security rule engine: the pull request's changed files in, findings
// out, only on lines the pull request added. Pure: no bridge, no disk.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agents/security/changed_file.h"
#include "core/finding.h"

namespace lw::agents::security {

enum class FileKind { Workflow, Action, ShellScript, Dockerfile, Makefile, Manifest, Other };

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
  std::string repositoryOwner;  // for secrets: inherit; empty = unknown
};

bool isDisabled(std::string_view ruleId, const ScanOptions& options);

// Every finding of every rule on `files`, on added lines, without the
// disabled rules or those below minSeverity; the most severe first (then by
// path and line), at most maxFindings.
std::vector<Finding> scanChangedFiles(const std::vector<ChangedFile>& files, const ScanOptions& options);

// The findings for one file, before options apply.
std::vector<Finding> scanFile(const ChangedFile& file, std::string_view repositoryOwner);

}  // namespace lw::agents::security
