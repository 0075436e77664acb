// "The same arguments" for loop detection: JSON compared by meaning, not by
// spelling ({"b":1,"a":2} and {"a":2, "b":1} are the same call).
#pragma once

#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace lw::guard {

// Serializes `v` with object keys sorted (recursively) and no whitespace.
// Numbers keep Boost.JSON's spelling (1 and 1.0 stay different).
std::string canonicalJson(const boost::json::value& v);

// A stable 64-bit FNV-1a digest as 16 lower-case hex digits: what the run
// record keeps instead of the arguments themselves.
std::string fingerprint(std::string_view text);

}  // namespace lw::guard
