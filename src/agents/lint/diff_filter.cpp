#include "agents/lint/diff_filter.h"

namespace lw::agents::lint {

std::optional<FilterMode> parseFilterMode(std::string_view name) {
  if (name == "added") return FilterMode::Added;
  if (name == "diff_context") return FilterMode::DiffContext;
  if (name == "file") return FilterMode::File;
  if (name == "nofilter") return FilterMode::NoFilter;
  return std::nullopt;
}

DiffLines DiffLines::of(const diff::DiffIndex& diff) {
  DiffLines lines;
  for (const diff::DiffFile& file : diff.files()) {
    // A deleted file has no new side for a finding to be on.
    if (file.newPath.empty()) continue;
    std::map<int, char>& kinds = lines.files_[file.newPath];
    for (const diff::DiffHunk& hunk : file.hunks) {
      for (const diff::DiffLine& line : hunk.lines) {
        if (line.newLine > 0) kinds[line.newLine] = line.kind;
      }
    }
  }
  return lines;
}

bool DiffLines::anyLineIn(const std::string& path, int first, int last, bool addedOnly) const {
  auto file = files_.find(path);
  if (file == files_.end()) return false;
  for (auto it = file->second.lower_bound(first); it != file->second.end() && it->first <= last; ++it) {
    if (!addedOnly || it->second == '+') return true;
  }
  return false;
}

// reviewdog reports a multi-line finding when any one of its lines passes.
bool shouldReport(const DiffLines& diff, FilterMode mode, const Finding& f) {
  if (mode == FilterMode::NoFilter) return true;
  if (mode == FilterMode::File) return diff.hasFile(f.path);
  if (f.line <= 0) return false;
  int last = f.endLine > f.line ? f.endLine : f.line;
  return diff.anyLineIn(f.path, f.line, last, mode == FilterMode::Added);
}

std::vector<Finding> filterFindings(std::vector<Finding> findings, const DiffLines& diff, FilterMode mode) {
  std::vector<Finding> kept;
  for (Finding& f : findings) {
    if (shouldReport(diff, mode, f)) kept.push_back(std::move(f));
  }
  return kept;
}

}  // namespace lw::agents::lint
