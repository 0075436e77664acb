#include "diff/unified_diff.h"

#include <charconv>

namespace lw::diff {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// git quotes paths with unusual bytes C-style ("b/a\tb", octal escapes).
std::string unquote(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::string(s);
  std::string out;
  for (std::size_t i = 1; i + 1 < s.size(); ++i) {
    char c = s[i];
    if (c != '\\' || i + 2 >= s.size()) {
      out += c;
      continue;
    }
    char n = s[++i];
    switch (n) {
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      default:
        if (n >= '0' && n <= '7' && i + 2 < s.size()) {
          int v = 0;
          for (int k = 0; k < 3 && i < s.size() - 1 && s[i] >= '0' && s[i] <= '7'; ++k, ++i) v = v * 8 + (s[i] - '0');
          --i;
          out += static_cast<char>(v);
        } else {
          out += n;
        }
    }
  }
  return out;
}

// "--- a/path" / "+++ b/path" / "/dev/null"; a tab ends the name (GNU diff
// appends timestamps after one).
std::string headerPath(std::string_view rest) {
  if (!rest.empty() && rest.front() != '"') {
    auto tab = rest.find('\t');
    if (tab != std::string_view::npos) rest = rest.substr(0, tab);
  }
  std::string p = unquote(rest);
  if (p == "/dev/null") return {};
  if (startsWith(p, "a/") || startsWith(p, "b/")) p.erase(0, 2);
  return p;
}

bool parseRange(std::string_view s, int& start, int& count) {
  auto comma = s.find(',');
  std::string_view a = s.substr(0, comma);
  if (std::from_chars(a.data(), a.data() + a.size(), start).ec != std::errc{}) return false;
  count = 1;
  if (comma != std::string_view::npos) {
    std::string_view b = s.substr(comma + 1);
    auto r = std::from_chars(b.data(), b.data() + b.size(), count);
    if (r.ec != std::errc{} || r.ptr != b.data() + b.size()) return false;
  }
  return start >= 0 && count >= 0;
}

// "@@ -1,5 +1,7 @@ optional section"
bool parseHunkHeader(std::string_view line, DiffHunk& h) {
  if (!startsWith(line, "@@ -")) return false;
  auto plus = line.find(" +", 4);
  if (plus == std::string_view::npos) return false;
  auto end = line.find(" @@", plus);
  if (end == std::string_view::npos) return false;
  return parseRange(line.substr(4, plus - 4), h.oldStart, h.oldCount) &&
         parseRange(line.substr(plus + 2, end - plus - 2), h.newStart, h.newCount);
}

Error diffError(int lineNo, std::string message) {
  Error e = makeError(ErrorCode::PublicationFailed, "cannot parse the pull request diff: " + std::move(message),
                      "the diff is not in unified format");
  e.location = Location{.file = "diff", .line = lineNo, .column = 0, .path = {}};
  return e;
}

// The lines the open hunk still expects of each side.
struct HunkLeft {
  int oldLines = 0, newLines = 0;
  bool open() const { return oldLines > 0 || newLines > 0; }
};

// One content line of the open hunk (the last of `files`). Inside a hunk
// every line is content, even one that looks like a header ("--- x" is the
// removed line "-- x").
Status takeHunkLine(std::string_view line, int lineNo, std::vector<DiffFile>& files, HunkLeft& left) {
  char c = line.empty() ? ' ' : line.front();
  if (c == '\\') return Ok{};  // "\ No newline at end of file"
  if (c != ' ' && c != '-' && c != '+') return diffError(lineNo, "hunk ends early");
  DiffHunk& h = files.back().hunks.back();
  DiffLine dl{c, 0, 0, std::string(line.empty() ? line : line.substr(1))};
  if (c != '+') dl.oldLine = h.oldStart + h.oldCount - left.oldLines--;
  if (c != '-') dl.newLine = h.newStart + h.newCount - left.newLines--;
  h.lines.push_back(std::move(dl));
  if (left.oldLines < 0 || left.newLines < 0) return diffError(lineNo, "hunk has more lines than its header says");
  return Ok{};
}

// One line between hunks: a file header, a rename, a mode, or a hunk header
// that opens the next hunk.
Status takeHeaderLine(std::string_view line, int lineNo, std::vector<DiffFile>& files, HunkLeft& left) {
  if (startsWith(line, "diff --git ")) {
    files.push_back(DiffFile{});
    // Paths come from ---/+++ when there are hunks; for renames and binary
    // files without them, "a/x b/y" is the only source.
    std::string_view rest = line.substr(11);
    auto sep = rest.find(" b/");
    if (startsWith(rest, "a/") && sep != std::string_view::npos) {
      files.back().oldPath = std::string(rest.substr(2, sep - 2));
      files.back().newPath = std::string(rest.substr(sep + 3));
    }
  } else if (startsWith(line, "--- ")) {
    if (files.empty() || !files.back().hunks.empty()) files.push_back(DiffFile{});
    files.back().oldPath = headerPath(line.substr(4));
  } else if (startsWith(line, "+++ ")) {
    if (files.empty()) return diffError(lineNo, "'+++' without a file header");
    files.back().newPath = headerPath(line.substr(4));
  } else if (startsWith(line, "rename to ")) {
    if (!files.empty()) files.back().newPath = unquote(line.substr(10));
  } else if (startsWith(line, "deleted file mode")) {
    if (!files.empty()) files.back().newPath.clear();
  } else if (startsWith(line, "Binary files ") || startsWith(line, "GIT binary patch")) {
    if (!files.empty()) files.back().binary = true;
  } else if (startsWith(line, "@@")) {
    DiffHunk h;
    if (!parseHunkHeader(line, h)) return diffError(lineNo, "bad hunk header '" + std::string(line) + "'");
    if (files.empty()) return diffError(lineNo, "hunk before any file header");
    files.back().hunks.push_back(h);
    left = {h.oldCount, h.newCount};
  }
  // Anything else (index, mode, similarity lines) carries nothing we need.
  return Ok{};
}

}  // namespace

Result<DiffIndex> DiffIndex::parse(std::string_view text) {
  DiffIndex index;
  int lineNo = 0;
  HunkLeft left;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    Status taken =
        left.open() ? takeHunkLine(line, lineNo, index.files_, left) : takeHeaderLine(line, lineNo, index.files_, left);
    if (!taken) return taken.error();
  }
  if (left.open()) return diffError(lineNo, "diff ends inside a hunk");
  return index;
}

const DiffFile* DiffIndex::file(const std::string& newPath) const {
  if (newPath.empty()) return nullptr;
  for (const DiffFile& f : files_)
    if (f.newPath == newPath) return &f;
  return nullptr;
}

// A path may appear in more than one section (concatenated diffs): every
// section's hunks count.
bool DiffIndex::commentable(const std::string& path, int line) const {
  if (path.empty() || line <= 0) return false;
  for (const DiffFile& f : files_) {
    if (f.newPath != path) continue;
    for (const DiffHunk& h : f.hunks)
      if (h.containsNew(line)) return true;
  }
  return false;
}

std::optional<CommentPlacement> DiffIndex::place(const std::string& path, int first, int last) const {
  if (path.empty() || first <= 0) return std::nullopt;
  if (last < first) last = first;
  for (const DiffFile& f : files_) {
    if (f.newPath != path) continue;
    for (const DiffHunk& h : f.hunks) {
      if (!h.containsNew(first)) continue;
      if (last == first) return CommentPlacement{0, first, false};
      if (h.containsNew(last)) return CommentPlacement{first, last, false};
      return CommentPlacement{0, first, true};
    }
  }
  return std::nullopt;
}

}  // namespace lw::diff
