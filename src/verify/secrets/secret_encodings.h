// The encoded forms under which a known secret value can appear in output.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lw::verify {

// (bytes, encoding name) pairs: base64 and base64url at the three byte
// alignments a value can have inside a longer encoded string (only the
// characters that depend on the value alone), percent-encoding with upper
// and lower case hex and '+' for space, and JSON string escaping. The raw
// value is not included.
std::vector<std::pair<std::string, std::string>> encodedForms(std::string_view secret);

}  // namespace lw::verify
