// The first step of neutralising: characters a reader cannot see, or that
// reorder what they see, are removed before anything else reads the text.
// Pure.
#pragma once

#include <string>
#include <string_view>

namespace lw::github {

// Valid UTF-8 without: C0 and C1 controls (tab and, when `keepNewlines`, LF
// kept; CR dropped; other newlines become spaces), DEL; bidi controls
// (U+061C, U+200E/F, U+202A-E, U+2066-9, Trojan Source, CVE-2021-42574);
// invisible characters that can carry text to the next model reading the
// thread: zero-width spaces and joiners (U+200B-D, U+2060-4), U+00AD,
// U+034F, U+115F/60, U+17B4/5, U+180B-F, U+2065, U+206A-F, U+3164, U+FFA0,
// U+FEFF, U+FFF0-B, variation selectors (U+FE00-F, U+E0100-E01EF), tag
// characters (U+E0000-E007F) and U+1D173-A; U+2028/9. Invalid bytes are
// dropped.
std::string removeUnsafeCharacters(std::string_view text, bool keepNewlines);

}  // namespace lw::github
