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

TEST_CASE("hex: random digits are lowercase hex of the length asked and differ between calls") {
  for (std::size_t digits : {0u, 1u, 7u, 8u, 9u, 16u, 33u}) {
    const std::string r = lw::randomHex(digits);
    CHECK(r.size() == digits);
    CHECK(lw::isLowerHex(r));
  }
  // 64 random bits twice: equal once in 2^64 runs.
  CHECK(lw::randomHex(16) != lw::randomHex(16));
}

TEST_CASE("hex: a digit's value in either case and nothing else") {
  CHECK(lw::hexDigitValue('0') == 0);
  CHECK(lw::hexDigitValue('9') == 9);
  CHECK(lw::hexDigitValue('a') == 10);
  CHECK(lw::hexDigitValue('F') == 15);
  for (char c : {'g', 'G', '/', ':', '@', '`', ' ', '\0'}) CHECK(lw::hexDigitValue(c) == -1);
}

TEST_CASE("hex: lowercase-only and either-case digit strings") {
  CHECK(lw::isLowerHex(""));
  CHECK(lw::isLowerHex("0123456789abcdef"));
  CHECK_FALSE(lw::isLowerHex("0123456789ABCDEF"));
  CHECK_FALSE(lw::isLowerHex("abcg"));
  CHECK(lw::isHex("0123456789abcdefABCDEF"));
  CHECK_FALSE(lw::isHex("12 4"));
  CHECK_FALSE(lw::isHex(std::string_view("ab\0", 3)));
}
