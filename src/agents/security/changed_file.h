// What the security rules read: a file the pull request changed, its content
// at the head commit (when a rule needs it whole), and its added lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diff/unified_diff.h"

namespace lw::agents::security {

struct ChangedFile {
  std::string path;                    // repository-relative, at head
  std::string content;                 // at head; empty when no rule needs it
  std::vector<int> addedLines;         // 1-based, ascending
  std::vector<std::string> addedText;  // the text of each added line, same order
  bool truncated = false;              // content is only the beginning (github.file's bound)

  bool isAdded(int line) const;
  // The lines of `content`, without their newline (a view into content).
  std::vector<std::string_view> lines() const;
};

// One ChangedFile per file of the diff that still exists and is text, with
// its added lines (content left empty). Files without added lines are kept
// out: no rule reports on a line the pull request did not add.
std::vector<ChangedFile> changedFilesFromDiff(const diff::DiffIndex& diff);

// A new file whose every line is added: how the corpus and the tests feed
// whole files to the rules.
ChangedFile wholeFileAdded(std::string path, std::string content);

}  // namespace lw::agents::security
