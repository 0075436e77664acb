// reviewdog's filter modes (filter/diff_filter.go in reviewdog/reviewdog)
// over the pull request's diff: which findings a review reports.
//   added        a line of the finding's range is an added line
//   diff_context a line of the range is inside a hunk (added or context)
//   file         the finding's file is in the diff
//   nofilter     every finding (the publisher puts those off the diff in
//                the review's body)
// A finding without a line (whole file) is never on a diff line; one
// without a path is kept only by nofilter. Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "diff/unified_diff.h"

namespace lw::agents::lint {

enum class FilterMode { Added, DiffContext, File, NoFilter };

// "added", "diff_context", "file", "nofilter"; nullopt otherwise.
std::optional<FilterMode> parseFilterMode(std::string_view name);

// The new side of a diff: for each file it leaves (renamed files under
// their new path), the kind ('+' or ' ') of each of its lines in a hunk.
class DiffLines {
 public:
  static DiffLines of(const diff::DiffIndex& diff);

  bool hasFile(const std::string& path) const { return files_.count(path) != 0; }
  // True when a line first..last of `path` is in a hunk (`addedOnly`: is an
  // added line).
  bool anyLineIn(const std::string& path, int first, int last, bool addedOnly) const;

 private:
  std::map<std::string, std::map<int, char>> files_;
};

bool shouldReport(const DiffLines& diff, FilterMode mode, const Finding& f);

// The findings `mode` keeps, in their order.
std::vector<Finding> filterFindings(std::vector<Finding> findings, const DiffLines& diff, FilterMode mode);

}  // namespace lw::agents::lint
