#include "github/publish/channels/patch_sections.h"

namespace lw::github {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The lines of `text`, each with its newline.
std::vector<std::string_view> linesOf(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

void noteHeaderLine(std::string_view line, PatchFile& f) {
  // git writes these extended header lines (git-diff(1), "generating patch
  // text with -p"); "GIT binary patch" and "Binary files" mark binary data.
  if (startsWith(line, "rename from") || startsWith(line, "copy from")) f.renamedOrCopied = true;
  if (startsWith(line, "old mode") || startsWith(line, "new mode")) f.modeChanged = true;
  if (startsWith(line, "new file mode")) f.added = true;
  if (startsWith(line, "deleted file mode")) f.deleted = true;
  if (startsWith(line, "GIT binary patch") || startsWith(line, "Binary files ")) f.binary = true;
}

Error notAPatch(std::string message) {
  return makeError(ErrorCode::PublicationFailed, "the change is not a git patch: " + std::move(message),
                   "it is published whole in the review body");
}

// One file's lines: header lines until the first "@@", then hunks. A content
// line starts with ' ', '+', '-' or '\', so a line starting "@@" always
// starts a hunk.
Result<PatchFile> readFile(const std::vector<std::string_view>& lines) {
  PatchFile f;
  std::string all;
  for (std::string_view l : lines) {
    all += l;
    if (startsWith(l, "@@")) {
      f.hunks.push_back({});
    } else if (f.hunks.empty()) {
      noteHeaderLine(l, f);
    } else {
      f.hunks.back().changesFinalNewline |= startsWith(l, "\\");
      f.hunks.back().hasCarriageReturn |= l.find('\r') != std::string_view::npos;
    }
    (f.hunks.empty() ? f.header : f.hunks.back().text) += l;
  }
  auto parsed = diff::DiffIndex::parse(all);
  if (!parsed) return notAPatch(parsed.error().message);
  if (parsed->files().size() != 1 || parsed->files()[0].hunks.size() != f.hunks.size())
    return notAPatch("a file section does not read as one file");
  const diff::DiffFile& d = parsed->files()[0];
  f.oldPath = d.oldPath;
  f.newPath = d.newPath;
  f.binary = f.binary || d.binary;
  for (std::size_t i = 0; i < f.hunks.size(); ++i) f.hunks[i].parsed = d.hunks[i];
  return f;
}

}  // namespace

std::string PatchFile::text() const {
  std::string out = header;
  for (const PatchHunk& h : hunks) out += h.text;
  return out;
}

Result<std::vector<PatchFile>> splitPatch(std::string_view patch) {
  std::vector<std::vector<std::string_view>> sections;
  for (std::string_view line : linesOf(patch)) {
    if (startsWith(line, "diff --git ")) sections.emplace_back();
    if (!sections.empty()) {
      sections.back().push_back(line);
    } else if (line.find_first_not_of(" \t\r\n") != std::string_view::npos) {
      return notAPatch("text before the first 'diff --git' line");
    }
  }
  std::vector<PatchFile> files;
  for (const auto& s : sections) {
    auto f = readFile(s);
    if (!f) return std::move(f).error();
    files.push_back(std::move(f).value());
  }
  return files;
}

}  // namespace lw::github
