#include "agents/security/changed_file.h"

#include <algorithm>

#include "agents/security/text.h"

namespace lw::agents::security {

bool ChangedFile::isAdded(int line) const { return std::binary_search(addedLines.begin(), addedLines.end(), line); }

std::vector<std::string_view> ChangedFile::lines() const {
  std::vector<std::string_view> out = splitLines(content);
  for (std::string_view& line : out)
    if (line.ends_with('\r')) line.remove_suffix(1);  // a file with CRLF line ends
  return out;
}

std::vector<ChangedFile> changedFilesFromDiff(const diff::DiffIndex& diff) {
  std::vector<ChangedFile> out;
  for (const diff::DiffFile& f : diff.files()) {
    if (f.newPath.empty() || f.binary) continue;
    ChangedFile cf;
    cf.path = f.newPath;
    for (const diff::DiffHunk& h : f.hunks)
      for (const diff::DiffLine& l : h.lines)
        if (l.kind == '+') {
          cf.addedLines.push_back(l.newLine);
          cf.addedText.push_back(l.text);
        }
    if (!cf.addedLines.empty()) out.push_back(std::move(cf));
  }
  return out;
}

ChangedFile wholeFileAdded(std::string path, std::string content) {
  ChangedFile cf;
  cf.path = std::move(path);
  cf.content = std::move(content);
  int n = 0;
  for (std::string_view line : cf.lines()) {
    cf.addedLines.push_back(++n);
    cf.addedText.emplace_back(line);
  }
  return cf;
}

}  // namespace lw::agents::security
