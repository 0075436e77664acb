#include "core/hex.h"

#include <algorithm>
#include <random>

namespace lw {
namespace {

constexpr char kLower[] = "0123456789abcdef";
constexpr char kUpper[] = "0123456789ABCDEF";

}  // namespace

void appendHexByte(std::string& out, unsigned char byte, HexCase hexCase) {
  const char* digits = hexCase == HexCase::Upper ? kUpper : kLower;
  out += digits[byte >> 4];
  out += digits[byte & 0xf];
}

std::string hexBytes(std::string_view bytes) {
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char c : bytes) appendHexByte(out, c);
  return out;
}

std::string hexNumber(std::uint64_t value, int digits) {
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, value >>= 4) out[static_cast<std::size_t>(i)] = kLower[value & 0xf];
  return out;
}

std::string randomHex(std::size_t digits) {
  std::random_device random;
  std::string out;
  out.reserve(digits);
  std::uint32_t bits = 0;
  for (std::size_t i = 0; i < digits; ++i, bits >>= 4) {
    if (i % 8 == 0) bits = random();
    out += kLower[bits & 0xf];
  }
  return out;
}

int hexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool isLowerHex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool isHex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return hexDigitValue(c) >= 0; });
}

}  // namespace lw
