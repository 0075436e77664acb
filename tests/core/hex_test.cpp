#include "core/hex.h"

#include <doctest/doctest.h>

#include <cstdio>

TEST_CASE("hex: bytes become two lowercase digits each, high nibble first") {
  CHECK(lw::hexBytes("") == "");
  CHECK(lw::hexBytes(std::string_view("\x00\x0f\xf0\xff\x5a", 5)) == "000ff0ff5a");
}

TEST_CASE("hex: a number prints as printf's zero-padded %x of the same width") {
  for (std::uint64_t v : {0ull, 1ull, 0xabcull, 0xffffffffull, 0x0123456789abcdefull, ~0ull}) {
    for (int digits : {6, 8, 16}) {
      char expected[17];
      const std::uint64_t low = digits == 16 ? v : v & ((1ull << (4 * digits)) - 1);
      std::snprintf(expected, sizeof expected, "%0*llx", digits, static_cast<unsigned long long>(low));
      CHECK(lw::hexNumber(v, digits) == expected);
    }
  }
}

TEST_CASE("hex: a byte appended after an escape in the case asked for") {
  std::string out = "%";
  lw::appendHexByte(out, 0xab, lw::HexCase::Upper);
  lw::appendHexByte(out, 0x0c);
  CHECK(out == "%AB0c");
}
