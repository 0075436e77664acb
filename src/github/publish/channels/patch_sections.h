// A `git diff --binary` patch cut into its files and hunks, each kept as the
// exact text it was written as (a hunk that is not published as a suggestion
// is shown as it is). Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "diff/unified_diff.h"

namespace lw::github {

struct PatchHunk {
  std::string text;                  // from its "@@" line through its last line, newlines kept
  diff::DiffHunk parsed;             // its lines with their numbers on each side
  bool changesFinalNewline = false;  // has a "\ No newline at end of file" line
  bool hasCarriageReturn = false;    // some line ends in CR (CRLF files)
};

struct PatchFile {
  std::string header;   // "diff --git …" through the line before the first hunk
  std::string oldPath;  // empty for an added file
  std::string newPath;  // empty for a deleted file
  // What a suggestion (replacement lines of one file) cannot express.
  bool binary = false;
  bool added = false;    // "new file mode"
  bool deleted = false;  // "deleted file mode"
  bool renamedOrCopied = false;
  bool modeChanged = false;
  std::vector<PatchHunk> hunks;
  std::string text() const;  // header and hunks: this file's part of the patch
};

// Fails with PUBLICATION_FAILED when the text is not a git patch (text
// before the first "diff --git" line, or a hunk that does not parse).
Result<std::vector<PatchFile>> splitPatch(std::string_view patch);

}  // namespace lw::github
