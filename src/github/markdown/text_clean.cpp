#include "github/markdown/text_clean.h"

namespace lw::github {

namespace {

struct Range {
  char32_t first, last;
};

// Invisible or reordering code points above ASCII (see the header).
constexpr Range kUnsafe[] = {
    {0x80, 0x9F},     {0xAD, 0xAD},     {0x34F, 0x34F},   {0x61C, 0x61C},     {0x115F, 0x1160},   {0x17B4, 0x17B5},
    {0x180B, 0x180F}, {0x200B, 0x200F}, {0x2028, 0x202E}, {0x2060, 0x206F},   {0x3164, 0x3164},   {0xFE00, 0xFE0F},
    {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFFB}, {0x1D173, 0x1D17A}, {0xE0000, 0xE007F}, {0xE0100, 0xE01EF},
};

bool unsafeCodePoint(char32_t cp) {
  if (cp < 0x80) return cp < 0x20 || cp == 0x7F;
  for (const Range& r : kUnsafe)
    if (cp >= r.first && cp <= r.last) return true;
  return false;
}

// Length of the valid UTF-8 sequence at `i` and its code point; 0 if invalid.
std::size_t decodeAt(std::string_view t, std::size_t i, char32_t& cp) {
  const auto c = static_cast<unsigned char>(t[i]);
  std::size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (len == 0 || i + len > t.size()) return 0;
  cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < len; ++k) {
    const auto d = static_cast<unsigned char>(t[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string removeUnsafeCharacters(std::string_view text, bool keepNewlines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t len = decodeAt(text, i, cp);
    if (len == 0) {
      ++i;  // not UTF-8: GitHub's JSON would refuse it
      continue;
    }
    if (cp == '\n' || cp == '\t')
      out += cp == '\n' && !keepNewlines ? ' ' : static_cast<char>(cp);
    else if (cp == 0x2028 || cp == 0x2029 || cp == 0x85)
      out += ' ';
    else if (!unsafeCodePoint(cp))
      out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace lw::github
