// The pieces of github/neutralise.h, internal to src/github (tested through
// it): character cleaning, the Markdown pass, fences and length bounds.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "github/neutralise.h"

namespace lw::github::neutral {

// U+2060 WORD JOINER: invisible, and no GitHub autolinker or mention
// matches across it.
inline constexpr std::string_view kWordJoiner = "\xE2\x81\xA0";

// Valid UTF-8 without C0/C1 controls (tab and, when `keepNewlines`, LF kept;
// CR dropped), DEL, or bidi controls (U+061C, U+200E/F, U+202A-E,
// U+2066-9), U+2028/9 and U+FEFF. Invalid bytes are dropped.
std::string removeUnsafeCharacters(std::string_view text, bool keepNewlines);

// The Markdown pass of neutraliseMarkdown on cleaned text, repeated until
// its result is its own neutral form (and, with `closeFences`, an open code
// fence closed); not bounded.
std::string neutraliseMarkup(std::string_view text, const LinkScope& scope, bool closeFences);

// The same of the longest prefix of `text` whose result fits in `maxBytes`
// with `note` after it; the whole result when it fits as it is.
std::string boundedMarkup(std::string_view text, const LinkScope& scope, bool closeFences, std::size_t maxBytes,
                          std::string_view note);

// Whether a link destination stays in the repository: an absolute
// http(s) URL on the web host under /owner/repo, or a relative one that
// cannot leave it (no "//", "..", '\\', '&', '@' or encoded separators).
bool destinationInRepository(std::string_view dest, const LinkScope& scope);

// The closing fence of a fenced code block left open at the end (lines that
// start a ``` or ~~~ fence at the left margin), or "".
std::string closingFenceFor(std::string_view text);

}  // namespace lw::github::neutral
