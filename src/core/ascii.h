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

}  // namespace lw
