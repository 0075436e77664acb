// ASCII-only helpers for protocol text (URL schemes and hosts, GitHub's
// markers, fence info strings): the C locale's rules, never the user's.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace lw {

// `s` with A-Z made a-z; every other byte as it is.
inline std::string asciiLowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `s` without the ASCII blanks (space, tab, CR, LF) at either end.
inline std::string_view asciiTrimmed(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

}  // namespace lw
