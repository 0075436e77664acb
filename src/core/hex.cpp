#include "core/hex.h"

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

}  // namespace lw
