// Hexadecimal text: the one encoder every digest, tag, token and escape uses.
#pragma once

#include <cstddef>
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

// `digits` lowercase hex digits from std::random_device: a name or token
// that must not repeat across runs, not a secret.
std::string randomHex(std::size_t digits);

// The value of one hex digit (either case), or -1 for any other character.
int hexDigitValue(char c);

// Whether every character of `s` is a lowercase hex digit (a commit id, a
// digest, a fingerprint as loopwright and git print them); true for "".
bool isLowerHex(std::string_view s);

// Whether every character of `s` is a hex digit of either case (as a person
// may write one); true for "".
bool isHex(std::string_view s);

}  // namespace lw
