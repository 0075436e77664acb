// Base64 (RFC 4648) through OpenSSL's public EVP_EncodeBlock/EVP_DecodeBlock.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lw {

// RFC 4648 §4 (`+` and `/`) or §5, base64url (`-` and `_`).
enum class Base64Alphabet { Standard, Url };

// Padded with '=' to a multiple of four characters.
std::string base64Encode(std::string_view bytes, Base64Alphabet alphabet = Base64Alphabet::Standard);

// nullopt unless `text` is canonical padded base64 in the standard alphabet:
// a multiple of four characters, '=' only as the last one or two, no
// whitespace, and unused bits of the last group zero (RFC 4648 §3.5), so
// that each value has exactly one accepted text.
std::optional<std::string> base64Decode(std::string_view text);

}  // namespace lw
