#include "core/github_reads.h"

namespace lw {

std::string_view toString(FileChange c) {
  switch (c) {
    case FileChange::Added: return "added";
    case FileChange::Modified: return "modified";
    case FileChange::Removed: return "removed";
    case FileChange::Renamed: return "renamed";
    case FileChange::Copied: return "copied";
  }
  return "modified";
}

std::optional<FileChange> parseFileChange(std::string_view s) {
  if (s == "added") return FileChange::Added;
  // GitHub also answers "changed" (a mode change) and "unchanged".
  if (s == "modified" || s == "changed" || s == "unchanged") return FileChange::Modified;
  if (s == "removed") return FileChange::Removed;
  if (s == "renamed") return FileChange::Renamed;
  if (s == "copied") return FileChange::Copied;
  return std::nullopt;
}

std::string_view toString(TreeSide s) { return s == TreeSide::Base ? "base" : "head"; }

namespace {
constexpr std::string_view kNotFound = "not found: ";
}  // namespace

Error notFound(const std::string& what) { return makeError(ErrorCode::IoError, std::string(kNotFound) + what); }

bool isNotFound(const Error& e) { return e.code == ErrorCode::IoError && e.message.starts_with(kNotFound); }

std::pair<std::string, bool> clipUnifiedDiff(std::string diff, std::size_t maxBytes) {
  if (diff.size() <= maxBytes) return {std::move(diff), false};
  // A boundary is the start of a line; the text before it must fit.
  auto lastBoundary = [&](std::string_view marker) -> std::size_t {
    std::string needle = "\n" + std::string(marker);
    std::size_t pos = diff.rfind(needle, maxBytes);
    while (pos != std::string::npos && pos + 1 > maxBytes)
      pos = pos == 0 ? std::string::npos : diff.rfind(needle, pos - 1);
    return pos == std::string::npos ? 0 : pos + 1;
  };
  std::size_t cut = lastBoundary("diff --git ");
  if (cut == 0) cut = lastBoundary("@@ ");
  diff.resize(cut);
  return {std::move(diff), true};
}

bool isBinaryContent(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == 0) return true;
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return true;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return true;
    i += len;
  }
  return false;
}

std::string clipUtf8(std::string text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return text;
  std::size_t cut = maxBytes;
  // Back off continuation bytes (10xxxxxx) so that no sequence is split.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text;
}

}  // namespace lw
