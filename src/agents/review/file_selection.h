// Which changed files builtin/review sends to the model. Skipped by default,
// with the reason in coverage.json: generated files (by path, or by a
// "generated … do not edit" / "@generated" marker in the first lines the
// diff shows), vendored trees, lock files, binary and removed files. Then
// the step's `exclude` globs, then `maxFiles`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/review/coverage.h"
#include "agents/review/pull_inputs.h"
#include "diff/unified_diff.h"

namespace lw::agents::review {

struct Selection {
  std::vector<std::string> review;    // in the order of github.pulls.files
  std::vector<FileCoverage> skipped;  // status Skipped, each with its reason
};

// The reason a file is never reviewed ("generated file", "vendored
// directory", "lock file"), from its path alone; nullopt otherwise.
std::optional<std::string> defaultSkipReason(std::string_view path);

// True when one of the first lines of the file the diff shows carries a
// generator's marker (Go's "// Code generated … DO NOT EDIT.", protoc's,
// "@generated").
bool hasGeneratedMarker(const diff::DiffFile& file);

// `glob` against a repository path: '*' and '?' also match '/', so "dir/*"
// covers the tree below dir; a glob without '/' is also tried on the file
// name alone ("*.snap" anywhere), as .gitignore does.
bool excludeMatches(std::string_view glob, std::string_view path);

Selection selectFiles(const std::vector<ChangedFile>& files, const diff::DiffIndex& diff,
                      const std::vector<std::string>& exclude, int maxFiles);

}  // namespace lw::agents::review
