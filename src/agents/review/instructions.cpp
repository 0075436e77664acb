#include "agents/review/instructions.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace lw::agents::review {

namespace {

struct MdLine {
  std::string_view text;
  int headingLevel = 0;  // 0: not a heading
};

bool isFence(std::string_view line) {
  std::size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos || i > 3) return false;
  line.remove_prefix(i);
  return line.starts_with("```") || line.starts_with("~~~");
}

// An ATX heading: up to three spaces, 1-6 '#', then a space or the end.
int headingLevel(std::string_view line) {
  std::size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos || i > 3) return 0;
  std::size_t hashes = 0;
  while (i + hashes < line.size() && line[i + hashes] == '#') ++hashes;
  if (hashes == 0 || hashes > 6) return 0;
  if (i + hashes < line.size() && line[i + hashes] != ' ' && line[i + hashes] != '\t') return 0;
  return static_cast<int>(hashes);
}

std::vector<MdLine> splitMarkdown(std::string_view md) {
  std::vector<MdLine> lines;
  bool inFence = false;
  std::size_t pos = 0;
  while (pos < md.size()) {
    std::size_t nl = md.find('\n', pos);
    std::size_t end = nl == std::string_view::npos ? md.size() : nl + 1;
    std::string_view line = md.substr(pos, end - pos);
    pos = end;
    if (isFence(line)) inFence = !inFence;
    lines.push_back({line, inFence ? 0 : headingLevel(line)});
  }
  return lines;
}

bool mentionsReview(std::string_view heading) {
  std::string l(heading);
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
  return l.find("review") != std::string::npos;
}

}  // namespace

std::string reviewSections(std::string_view markdown) {
  const std::vector<MdLine> lines = splitMarkdown(markdown);
  std::string out;
  int openLevel = 0;  // the level of the review section being copied; 0: none
  for (const MdLine& l : lines) {
    if (l.headingLevel > 0 && openLevel > 0 && l.headingLevel <= openLevel) openLevel = 0;
    if (l.headingLevel > 0 && openLevel == 0 && mentionsReview(l.text)) openLevel = l.headingLevel;
    if (openLevel > 0) out += l.text;
  }
  return out.empty() ? std::string(markdown) : out;
}

std::string boundInstructions(std::string_view text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return std::string(text);
  const std::string note =
      "\n[the instructions were cut here: at most " + std::to_string(maxBytes) + " bytes are sent]\n";
  std::size_t room = maxBytes > note.size() ? maxBytes - note.size() : 0;
  std::size_t cut = room == 0 ? std::string_view::npos : text.rfind('\n', room - 1);
  std::string_view kept = cut == std::string_view::npos ? std::string_view() : text.substr(0, cut + 1);
  return std::string(kept) + note;
}

}  // namespace lw::agents::review
