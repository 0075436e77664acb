// Unified diffs as GitHub returns them (`application/vnd.github.diff`) or as
// libgit2 prints them, reduced to what review comments need: for each file,
// the new-side line ranges of its hunks. GitHub accepts a review comment on
// side RIGHT only on a line inside a hunk, and a multi-line comment only when
// both ends are in the same hunk.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace lw::diff {

// One line of a hunk: ' ' context, '+' added, '-' removed; the line
// numbers on each side (0 on the side the line is not on).
struct DiffLine {
  char kind = ' ';
  int oldLine = 0;
  int newLine = 0;
  std::string text;  // without the leading kind character and the newline
};

struct DiffHunk {
  int oldStart = 0;
  int oldCount = 0;
  int newStart = 0;
  int newCount = 0;  // 0 for a hunk that only deletes
  std::vector<DiffLine> lines;
  bool containsNew(int line) const { return newCount > 0 && line >= newStart && line < newStart + newCount; }
};

struct DiffFile {
  std::string oldPath;  // empty for an added file
  std::string newPath;  // empty for a deleted file
  std::vector<DiffHunk> hunks;
  bool binary = false;
};

// Where an inline comment goes: `line` is the last line, `startLine` the
// first when the comment spans several (0 = single line).
struct CommentPlacement {
  int startLine = 0;
  int line = 0;
  bool clipped = false;  // the requested range left its hunk: only `line` kept
};

class DiffIndex {
 public:
  // Fails with PUBLICATION_FAILED (location line = diff line) on a hunk
  // header that does not parse or hunk lines outside any file.
  static Result<DiffIndex> parse(std::string_view unified);

  const std::vector<DiffFile>& files() const { return files_; }
  const DiffFile* file(const std::string& newPath) const;

  // True when `line` (new side) of `path` is inside one of its hunks.
  bool commentable(const std::string& path, int line) const;

  // The placement for lines first..last (last 0 = first): both ends in one
  // hunk gives a range; otherwise the first line alone when it is in a hunk
  // (clipped), else nullopt.
  std::optional<CommentPlacement> place(const std::string& path, int first, int last) const;

 private:
  std::vector<DiffFile> files_;
};

}  // namespace lw::diff
