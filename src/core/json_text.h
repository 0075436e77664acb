// JSON text that every strict reader accepts. Boost.JSON writes a string's
// bytes as they are, and the strings loopwright reports carry file names and
// symlink targets a step chose: bytes that need not be UTF-8. A report, a
// run.json or a request to GitHub with such a string is JSON no strict parser
// (Boost.JSON's own included) reads back.
#pragma once

#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace lw {

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates,
// nothing above U+10FFFF).
bool isValidUtf8(std::string_view s);

// `s` with every byte that is not part of a well-formed sequence replaced by
// U+FFFD, as the WHATWG decoder does (one replacement per maximal invalid
// subpart).
std::string repairUtf8(std::string_view s);

// json::serialize of `v` with every string and key repaired; the value is
// copied only when one needs it.
std::string toJsonText(const boost::json::value& v);

}  // namespace lw
