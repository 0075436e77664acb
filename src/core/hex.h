// Hexadecimal text: the one encoder every digest, tag, token and escape uses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lw {

// Upper case where a standard asks for it (percent-encoding, RFC 3986 §2.1).
enum class HexCase { Lower, Upper };

// Two lowercase digits per byte, most significant nibble first (a digest as
// sha256sum prints it).
std::string hexBytes(std::string_view bytes);

// The low `digits` nibbles of `value`, zero-padded, as printf's "%0*llx" prints
// them; `digits` is at most 16.
std::string hexNumber(std::uint64_t value, int digits);

// Appends the two digits of `byte` to `out` (after a `%` or `\u00`).
void appendHexByte(std::string& out, unsigned char byte, HexCase hexCase = HexCase::Lower);

}  // namespace lw
